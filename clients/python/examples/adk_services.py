"""mnemod as Google ADK's session and memory services.

With google-adk installed, pass the services to ADK's Runner:

    runner = Runner(agent=agent, app_name=APP, session_service=sessions, memory_service=memory)

This example drives them the way the Runner does (create, append, read,
add to memory, search), so it also runs without ADK, on the adapters'
stand-in classes.  python3 examples/adk_services.py
"""

import asyncio
from typing import Any

from mnemo import Client
from mnemo.adapters._adk_models import Event, GetSessionConfig
from mnemo.adapters.adk import MnemoMemoryService, MnemoSessionService

APP, USER = "adk_example", "ann"


def message(author: str, text: str, **fields: Any) -> Event:
    role = "user" if author == "user" else "model"
    return Event.model_validate({"author": author, "content": {"role": role, "parts": [{"text": text}]}, **fields})


async def main() -> None:
    client = Client()
    sessions = MnemoSessionService(client)
    memory = MnemoMemoryService(client)

    session = await sessions.create_session(app_name=APP, user_id=USER, state={"user:name": "Ann"})
    await sessions.append_event(session, message("user", "I'm vegetarian, plan a dinner"))
    await sessions.append_event(
        session,
        message("chef", "Mushroom risotto it is", actions={"state_delta": {"dish": "risotto", "temp:step": 1}}),
    )
    print("state after the turn:", session.state)  # temp: keys live for the invocation only

    read = await sessions.get_session(
        app_name=APP, user_id=USER, session_id=session.id, config=GetSessionConfig(num_recent_events=1)
    )
    assert read is not None
    print("newest event:", read.events[-1].author, read.events[-1].content.parts[0].text)
    print("stored state:", read.state)

    await memory.add_session_to_memory(session)
    found = await memory.search_memory(app_name=APP, user_id=USER, query="vegetarian")
    print("memory says:", [m.content.parts[0].text for m in found.memories])

    listed = await sessions.list_sessions(app_name=APP, user_id=USER)
    print("sessions:", [s.id for s in listed.sessions] == [session.id])
    await sessions.delete_session(app_name=APP, user_id=USER, session_id=session.id)
    client.purge_user(APP, USER)


asyncio.run(main())
