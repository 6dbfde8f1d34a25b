"""mnemod as the conversation memory of an OpenAI Agents SDK agent.

With openai-agents installed:

    session = MnemoSession("chat-42", client=Client(), app="support", user="ann")
    result = await Runner.run(agent, "Hi", session=session)

This example makes the calls the Runner makes (read the history, add the
turn's items, undo one), so it runs without the SDK.
python3 examples/openai_agents_session.py
"""

import asyncio

from mnemo import Client
from mnemo.adapters.openai_agents import MnemoSession

APP, USER = "agents_example", "ann"


async def main() -> None:
    client = Client()
    session = MnemoSession("chat-42", client=client, app=APP, user=USER)

    print("history before:", await session.get_items())
    await session.add_items(
        [
            {"role": "user", "content": "What's the weather in Oslo?"},
            {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city": "Oslo"}'},
            {"type": "function_call_output", "call_id": "c1", "output": "-3°C, snow"},
            {"role": "assistant", "content": "It is -3°C and snowing in Oslo."},
        ]
    )
    print("last two items:", await session.get_items(limit=2))

    undone = await session.pop_item()
    print("popped:", undone)
    print("items left:", len(await session.get_items()))

    await session.clear_session()
    print("after clear:", await session.get_items())
    client.purge_user(APP, USER)


asyncio.run(main())
