"""Adapters that put mnemod behind the session and memory interfaces of agent frameworks.

- :mod:`mnemo.adapters.adk`: Google ADK ``MnemoSessionService`` and ``MnemoMemoryService``.
- :mod:`mnemo.adapters.openai_agents`: OpenAI Agents SDK ``MnemoSession``.
- :mod:`mnemo.adapters.langgraph`: LangGraph ``MnemoSaver`` and ``MnemoStore``.

The first two import without their framework (with ADK installed the ADK
services subclass ADK's own base classes); the LangGraph one needs langgraph.
"""
