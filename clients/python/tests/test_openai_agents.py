"""The OpenAI Agents SDK Session adapter against a real daemon, one test per documented method and case."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from mnemo import Client
from mnemo.adapters.openai_agents import MnemoSession

APP, USER = "agents", "u1"

USER_MSG = {"role": "user", "content": "What is the capital of France?"}
CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q": "France"}'}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "Paris"}
ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "Paris.", "annotations": []}],
}
HISTORY = [USER_MSG, CALL, OUTPUT, ANSWER]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def session(client: Client) -> MnemoSession:
    return MnemoSession("conv-1", client=client, app=APP, user=USER)


def test_protocol_attributes(session: MnemoSession) -> None:
    # Without the SDK no settings; with it (ctest python_openai_agents) the SDK's empty SessionSettings.
    assert session.session_id == "conv-1" and getattr(session.session_settings, "limit", None) is None
    for method in ("get_items", "add_items", "pop_item", "clear_session"):
        assert asyncio.iscoroutinefunction(getattr(session, method))


def test_get_items_of_a_new_session_is_empty(session: MnemoSession) -> None:
    assert run(session.get_items()) == []


def test_add_items_then_get_items_gives_them_back_in_order(session: MnemoSession, client: Client) -> None:
    run(session.add_items(HISTORY))
    assert run(session.get_items()) == HISTORY
    stored = client.get_session(APP, USER, "conv-1")["events"]
    assert [e["role"] for e in stored] == ["user", "assistant", "tool", "assistant"]
    assert [e["content"].get("text") for e in stored] == [USER_MSG["content"], None, "Paris", "Paris."]


def test_add_items_with_nothing_does_nothing(session: MnemoSession, client: Client) -> None:
    run(session.add_items([]))
    assert client.list_sessions(APP, USER)["sessions"] == []


def test_add_items_across_batches_keeps_the_order(client: Client) -> None:
    small = MnemoSession("conv-2", client=client, app=APP, user=USER, batch=3)
    items = [{"role": "user", "content": f"m{i}"} for i in range(8)]
    run(small.add_items(items))
    assert run(small.get_items()) == items


def test_get_items_limit_gives_the_latest_in_chronological_order(session: MnemoSession) -> None:
    run(session.add_items(HISTORY))
    assert run(session.get_items(limit=2)) == [OUTPUT, ANSWER]
    assert run(session.get_items(limit=10)) == HISTORY
    assert run(session.get_items(limit=0)) == []
    assert run(session.get_items(limit=-1)) == []  # as the SDK's own sessions answer a negative limit


def test_session_settings_limit_is_the_default(client: Client) -> None:
    limited = MnemoSession("conv-1", client=client, app=APP, user=USER, session_settings={"limit": 1})
    run(limited.add_items(HISTORY))
    assert run(limited.get_items()) == [ANSWER]
    assert run(limited.get_items(limit=3)) == [CALL, OUTPUT, ANSWER]


def test_pop_item_removes_and_returns_the_newest(session: MnemoSession) -> None:
    run(session.add_items(HISTORY))
    assert run(session.pop_item()) == ANSWER
    assert run(session.pop_item()) == OUTPUT
    assert run(session.get_items()) == [USER_MSG, CALL]


def test_pop_item_of_a_user_item_past_one_batch_rewinds_it(client: Client) -> None:
    small = MnemoSession("conv-3", client=client, app=APP, user=USER, batch=2)
    run(small.add_items([USER_MSG, ANSWER, {"role": "user", "content": "and Spain?"}]))
    assert run(small.pop_item()) == {"role": "user", "content": "and Spain?"}
    assert run(small.get_items()) == [USER_MSG, ANSWER]


def test_pop_item_of_the_last_item_empties_the_session(session: MnemoSession) -> None:
    run(session.add_items([USER_MSG]))
    assert run(session.pop_item()) == USER_MSG
    assert run(session.get_items()) == []
    assert run(session.pop_item()) is None


def test_pop_item_of_an_empty_session_is_none(session: MnemoSession) -> None:
    assert run(session.pop_item()) is None


def test_clear_session_removes_everything_and_the_session_starts_afresh(session: MnemoSession) -> None:
    run(session.add_items(HISTORY))
    run(session.clear_session())
    assert run(session.get_items()) == []
    run(session.clear_session())  # clearing an empty session is fine
    run(session.add_items([USER_MSG]))
    assert run(session.get_items()) == [USER_MSG]


def test_items_written_by_other_clients_read_as_messages(session: MnemoSession, client: Client) -> None:
    typed = {"author": "user", "content": {"text": "typed elsewhere"}}
    client.append_event(APP, USER, "conv-1", typed, create_if_missing=True)
    assert run(session.get_items()) == [{"role": "user", "content": "typed elsewhere"}]
