"""The Google ADK adapters against a real daemon, one test per documented method and case.

Under Debian's python3 (ctest python_client) ADK is not installed and the
services run on the stand-in classes of mnemo.adapters._adk_models (the same
fields and pydantic calls as ADK); ctest python_frameworks runs this file
again with google-adk 2.13 installed, beside tests/adk_contract.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from mnemo import Client
from mnemo.adapters._adk_models import (
    AlreadyExistsError,
    BaseMemoryService,
    BaseSessionService,
    Event,
    GetSessionConfig,
    MemoryEntry,
    SessionNotFoundError,
    StaleSessionError,
)
from mnemo.adapters.adk import MnemoMemoryService, MnemoSessionService

APP, USER = "adk_app", "alice"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def adk_event(text: str, author: str = "user", **fields: Any) -> Event:
    role = "user" if author == "user" else "model"
    return Event.model_validate(
        {"author": author, "invocation_id": "inv-1", "content": {"role": role, "parts": [{"text": text}]}, **fields}
    )


@pytest.fixture
def service(client: Client) -> MnemoSessionService:
    return MnemoSessionService(client)


def test_the_services_are_adks_base_services(service: MnemoSessionService, client: Client) -> None:
    # ADK's Runner and InvocationContext type-check these bases when google-adk is installed.
    assert isinstance(service, BaseSessionService)
    assert isinstance(MnemoMemoryService(client), BaseMemoryService)


def test_create_session_splits_state_by_prefix(service: MnemoSessionService, client: Client) -> None:
    session = run(
        service.create_session(
            app_name=APP, user_id=USER, state={"topic": "x", "app:theme": "dark", "user:lang": "fr", "temp:t": 1}
        )
    )
    assert session.app_name == APP and session.user_id == USER and session.events == []
    assert session.state == {"topic": "x", "app:theme": "dark", "user:lang": "fr"}
    assert session.last_update_time > 0
    assert client.get_app_state(APP) == {"theme": "dark"} and client.get_user_state(APP, USER) == {"lang": "fr"}


def test_create_session_with_an_id_and_a_taken_id(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id=" chosen "))
    assert session.id == "chosen"
    with pytest.raises(AlreadyExistsError):
        run(service.create_session(app_name=APP, user_id=USER, session_id="chosen"))


def test_get_session_absent_is_none(service: MnemoSessionService) -> None:
    assert run(service.get_session(app_name=APP, user_id=USER, session_id="missing")) is None


def test_append_event_and_read_it_back_whole(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    sent = adk_event("hello", branch="root.a", usage_metadata={"prompt_token_count": 3, "total_token_count": 5})
    returned = run(service.append_event(session, sent))
    assert returned is sent and session.events == [sent] and session.last_update_time == sent.timestamp
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    assert read is not None and len(read.events) == 1
    assert read.events[0].model_dump() == sent.model_dump()


def test_an_event_id_mnemod_cannot_take_is_kept_for_adk(service: MnemoSessionService, client: Client) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    odd = adk_event("hi", id="tool call #1/2")
    run(service.append_event(session, odd))
    run(service.append_event(session, odd))  # the same event again is stored once
    assert run(service.get_session(app_name=APP, user_id=USER, session_id="s1")).events[0].id == "tool call #1/2"
    assert len(client.get_session(APP, USER, "s1")["events"]) == 1


def test_append_event_applies_app_user_and_temp_state(service: MnemoSessionService, client: Client) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    delta = {"step": 2, "app:count": 7, "user:name": "Al", "temp:scratch": "tmp"}
    event = adk_event("go", author="agent", actions={"state_delta": delta})
    run(service.append_event(session, event))
    # ADK keeps temp: values on the session object for the invocation, never in storage.
    assert session.state == delta and "temp:scratch" not in event.actions.state_delta
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    assert read.state == {"step": 2, "app:count": 7, "user:name": "Al"}
    assert read.events[0].actions.state_delta == {"step": 2, "app:count": 7, "user:name": "Al"}
    assert client.get_app_state(APP) == {"count": 7} and client.get_user_state(APP, USER) == {"name": "Al"}
    other = run(service.create_session(app_name=APP, user_id=USER))
    assert other.state == {"app:count": 7, "user:name": "Al"}  # app and user state are shared


def test_append_event_partial_is_not_stored(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    partial = adk_event("typing…", author="agent", partial=True)
    assert run(service.append_event(session, partial)) is partial
    assert session.events == []
    assert run(service.get_session(app_name=APP, user_id=USER, session_id="s1")).events == []


def test_append_event_to_a_stale_copy_raises_stale_session_error(service: MnemoSessionService, client: Client) -> None:
    run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    first = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    second = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    run(service.append_event(first, adk_event("from the first copy")))
    run(service.append_event(first, adk_event("and again")))  # the copy that wrote stays current
    with pytest.raises(StaleSessionError, match="stale"):
        run(service.append_event(second, adk_event("from the stale copy")))
    assert second.events == []
    fresh = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    assert [e.content.parts[0].text for e in fresh.events] == ["from the first copy", "and again"]
    client.append_event(APP, USER, "s1", {"author": "user", "content": {"text": "another writer"}})
    with pytest.raises(StaleSessionError, match="stale"):
        run(service.append_event(fresh, adk_event("after another writer")))
    # A session object this service did not hand out appends unconditionally.
    run(MnemoSessionService(client).append_event(fresh, adk_event("from elsewhere")))
    assert client.get_session(APP, USER, "s1")["session"]["event_count"] == 4


def test_append_event_to_a_deleted_session_raises_session_not_found(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    run(service.delete_session(app_name=APP, user_id=USER, session_id="s1"))
    with pytest.raises(SessionNotFoundError):
        run(service.append_event(session, adk_event("late")))


def test_get_session_config_num_recent_events(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    for i in range(4):
        run(service.append_event(session, adk_event(f"m{i}", timestamp=1_800_000_000.0 + i)))
    config = GetSessionConfig(num_recent_events=2)
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1", config=config))
    assert [e.content.parts[0].text for e in read.events] == ["m2", "m3"]


def test_get_session_config_after_timestamp_keeps_events_at_and_after_it(service: MnemoSessionService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    for i in range(4):
        run(service.append_event(session, adk_event(f"m{i}", timestamp=1_800_000_000.25 + i)))
    config = GetSessionConfig(after_timestamp=1_800_000_001.25)
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1", config=config))
    assert [e.content.parts[0].text for e in read.events] == ["m1", "m2", "m3"]
    both = GetSessionConfig(after_timestamp=1_800_000_001.25, num_recent_events=1)
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1", config=both))
    assert [e.content.parts[0].text for e in read.events] == ["m3"]


def test_list_sessions_with_merged_state_without_events(service: MnemoSessionService) -> None:
    for sid in ("a", "b"):
        session = run(service.create_session(app_name=APP, user_id=USER, session_id=sid, state={"k": sid}))
        run(service.append_event(session, adk_event("hi")))
    run(service.create_session(app_name=APP, user_id="bob", session_id="c"))
    listed = run(service.list_sessions(app_name=APP, user_id=USER)).sessions
    assert sorted(s.id for s in listed) == ["a", "b"]
    assert all(s.events == [] and s.state == {"k": s.id} and s.user_id == USER for s in listed)
    assert all(s.last_update_time > 0 for s in listed)
    everyone = run(service.list_sessions(app_name=APP, user_id=None)).sessions
    assert sorted((s.user_id, s.id) for s in everyone) == [("alice", "a"), ("alice", "b"), ("bob", "c")]
    assert run(service.list_sessions(app_name="empty_app", user_id=USER)).sessions == []


def test_list_sessions_oldest_update_first(service: MnemoSessionService) -> None:
    for i in range(3):
        run(service.create_session(app_name=APP, user_id=USER, session_id=f"p{i}"))
    first = run(service.get_session(app_name=APP, user_id=USER, session_id="p0"))
    run(service.append_event(first, adk_event("p0 is now the latest", timestamp=first.last_update_time + 60)))
    listed = run(service.list_sessions(app_name=APP, user_id=USER)).sessions
    assert [s.id for s in listed] == ["p1", "p2", "p0"]
    assert listed[-1].last_update_time == first.last_update_time


def test_delete_session_and_deleting_an_absent_one(service: MnemoSessionService) -> None:
    run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    run(service.delete_session(app_name=APP, user_id=USER, session_id="s1"))
    assert run(service.get_session(app_name=APP, user_id=USER, session_id="s1")) is None
    run(service.delete_session(app_name=APP, user_id=USER, session_id="s1"))  # no error


def test_events_written_by_other_clients_read_as_text_events(service: MnemoSessionService, client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_events(APP, USER, "s1", [{"author": "user", "content": {"text": "from curl"}}])
    read = run(service.get_session(app_name=APP, user_id=USER, session_id="s1"))
    assert read.events[0].author == "user" and read.events[0].content.parts[0].text == "from curl"


@pytest.fixture
def memory(client: Client) -> MnemoMemoryService:
    return MnemoMemoryService(client)


def test_add_session_to_memory_and_search_it(service: MnemoSessionService, memory: MnemoMemoryService) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    run(service.append_event(session, adk_event("I am allergic to peanuts", timestamp=1_800_000_000.0)))
    run(service.append_event(session, adk_event("Noted: no peanuts.", author="helper")))
    run(service.append_event(session, adk_event("", author="helper", actions={"state_delta": {"k": 1}})))
    run(memory.add_session_to_memory(session))
    found = run(memory.search_memory(app_name=APP, user_id=USER, query="peanuts")).memories
    assert sorted(m.content.parts[0].text for m in found) == ["I am allergic to peanuts", "Noted: no peanuts."]
    mine = next(m for m in found if m.author == "user")
    assert mine.content.role == "user" and mine.timestamp.startswith("2027-01-15T08:00:00")
    assert run(memory.search_memory(app_name=APP, user_id="bob", query="peanuts")).memories == []


def test_adding_a_session_again_stores_only_its_new_events(
    service: MnemoSessionService, memory: MnemoMemoryService, client: Client
) -> None:
    session = run(service.create_session(app_name=APP, user_id=USER, session_id="s1"))
    run(service.append_event(session, adk_event("first fact")))
    run(memory.add_session_to_memory(session))
    run(service.append_event(session, adk_event("second fact")))
    run(memory.add_session_to_memory(session))
    stored = list(client.iter_memories(APP, USER, namespace="adk"))
    assert sorted(m["text"] for m in stored) == ["first fact", "second fact"]
    assert all(m["session_id"] == "s1" for m in stored)


def test_search_memory_with_a_blank_query_is_empty(memory: MnemoMemoryService) -> None:
    assert run(memory.search_memory(app_name=APP, user_id=USER, query="  ")).memories == []


def test_add_events_to_memory_adds_a_delta_with_custom_metadata(memory: MnemoMemoryService, client: Client) -> None:
    first = [adk_event("I moved to Oslo"), adk_event("", author="helper")]
    run(memory.add_events_to_memory(app_name=APP, user_id=USER, events=first, session_id="s7",
                                    custom_metadata={"source": "turn"}))
    later = [first[0], adk_event("I work at the port")]  # overlapping deltas store each event once
    run(memory.add_events_to_memory(app_name=APP, user_id=USER, events=later, session_id="s7",
                                    custom_metadata={"source": "turn"}))
    stored = sorted((m["text"], m["session_id"], m["metadata"]["source"]) for m in client.iter_memories(APP, USER))
    assert stored == [("I moved to Oslo", "s7", "turn"), ("I work at the port", "s7", "turn")]


def test_add_memory_search_and_delete_by_id(memory: MnemoMemoryService, client: Client) -> None:
    entries = [
        MemoryEntry.model_validate({"id": "fav-color", "content": {"parts": [{"text": "Favourite colour: teal"}]},
                                    "custom_metadata": {"kind": "pref"}}),
        MemoryEntry.model_validate({"content": {"parts": [{"text": "Teal car, bought 2024"}]}, "author": "user"}),
        "Teal is also the team's colour",  # a plain string is the memory's text
    ]
    run(memory.add_memory(app_name=APP, user_id=USER, memories=entries, custom_metadata={"via": "tool"}))
    found = run(memory.search_memory(app_name=APP, user_id=USER, query="teal")).memories
    by_text = {m.content.parts[0].text: m for m in found}
    assert set(by_text) == {"Favourite colour: teal", "Teal car, bought 2024", "Teal is also the team's colour"}
    assert by_text["Favourite colour: teal"].id == "fav-color"
    assert by_text["Favourite colour: teal"].custom_metadata == {"via": "tool", "kind": "pref"}
    assert by_text["Teal car, bought 2024"].author == "user"
    run(memory.delete_memory(app_name=APP, user_id=USER, memory_id="fav-color"))
    run(memory.delete_memory(app_name=APP, user_id=USER, memory_id="fav-color"))  # missing: a no-op
    assert sorted(m["text"] for m in client.iter_memories(APP, USER)) == [
        "Teal car, bought 2024",
        "Teal is also the team's colour",
    ]


def test_delete_memories_forgets_all_of_one_user(memory: MnemoMemoryService, client: Client) -> None:
    client.write_memories(APP, USER, [{"text": f"fact {i}"} for i in range(3)])
    client.write_memory(APP, "bob", "bob's fact")
    client.create_session(APP, USER, id="kept")
    run(memory.delete_memories(app_name=APP, user_id=USER))
    assert list(client.iter_memories(APP, USER)) == []
    assert [m["text"] for m in client.iter_memories(APP, "bob")] == ["bob's fact"]
    assert client.get_session(APP, USER, "kept")["session"]["id"] == "kept"
