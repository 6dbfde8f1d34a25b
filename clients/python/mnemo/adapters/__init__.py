"""Adapters that put mnemod behind the session and memory interfaces of agent frameworks.

- :mod:`mnemo.adapters.adk`: Google ADK ``MnemoSessionService`` and ``MnemoMemoryService``.
- :mod:`mnemo.adapters.openai_agents`: OpenAI Agents SDK ``MnemoSession``.

Neither needs its framework installed to be imported; with ADK installed the
ADK services subclass ADK's own base classes.
"""
