"""ADK's own Runner on mnemod: three turns of an LlmAgent with a scripted model, both services mnemod's.

The model answers from a script and records what ADK sent it, so the test
sees what the services fed the agent: the session's history from mnemod,
``output_key`` state written through an event's delta, and memories of an
earlier session recalled by ADK's ``preload_memory`` tool through
``MnemoMemoryService.search_memory`` (mnemod's ranked recall).
"""

from __future__ import annotations

from typing import AsyncGenerator, Callable, List

import pytest
from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.tools import preload_memory
from google.genai import types

from mnemo import Client
from mnemo.adapters.adk import MnemoMemoryService, MnemoSessionService

APP, USER = "helpdesk", "ann"


class ScriptedModel(BaseLlm):
    """Answers each call with the next scripted text; keeps the texts of every request as it was sent."""

    replies: List[str]
    seen: List[List[str]] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.seen.append(texts(llm_request))  # now: ADK takes transient parts out of the request afterwards
        text = self.replies[len(self.seen) - 1]
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


def texts(request: LlmRequest) -> List[str]:
    return [part.text for content in request.contents for part in content.parts or [] if part.text]


def user_says(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def turn(runner: Runner, session_id: str, text: str) -> str:
    replies = []
    async for event in runner.run_async(user_id=USER, session_id=session_id, new_message=user_says(text)):
        if event.content and event.content.parts and event.author != "user":
            replies += [part.text for part in event.content.parts if part.text]
    return " ".join(replies)


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_three_turns_with_history_state_and_recalled_memory(
    backend: str, start_daemon: Callable[..., object]
) -> None:
    daemon = start_daemon(backend)
    with Client(daemon.url) as client:  # type: ignore[attr-defined]
        sessions, memory = MnemoSessionService(client), MnemoMemoryService(client)
        model = ScriptedModel(
            model="scripted",
            replies=["Noted: your printer is a LaserJet 4.", "Try power-cycling the LaserJet 4.", "A LaserJet 4."],
        )
        agent = LlmAgent(name="helper", model=model, instruction="Help.", tools=[preload_memory], output_key="last")
        runner = Runner(app_name=APP, agent=agent, session_service=sessions, memory_service=memory)

        await sessions.create_session(app_name=APP, user_id=USER, session_id="first")
        assert await turn(runner, "first", "My printer is a LaserJet 4.") == "Noted: your printer is a LaserJet 4."
        assert await turn(runner, "first", "It jams, what now?") == "Try power-cycling the LaserJet 4."
        # The second call carried the first turn, read back from mnemod.
        assert model.seen[1][:2] == ["My printer is a LaserJet 4.", "Noted: your printer is a LaserJet 4."]
        stored = await sessions.get_session(app_name=APP, user_id=USER, session_id="first")
        assert [e.author for e in stored.events] == ["user", "helper", "user", "helper"]
        assert stored.state["last"] == "Try power-cycling the LaserJet 4."
        assert client.get_session(APP, USER, "first")["session"]["event_count"] == 4

        await memory.add_session_to_memory(stored)
        await sessions.create_session(app_name=APP, user_id=USER, session_id="second")
        assert await turn(runner, "second", "Which printer do I have?") == "A LaserJet 4."
        # preload_memory put the first session's memories, recalled by mnemod, before the new question.
        recalled, question = model.seen[2]
        assert "<PAST_CONVERSATIONS>" in recalled and "user: My printer is a LaserJet 4." in recalled
        assert question == "Which printer do I have?"
