"""Google ADK 2.13's session-service contract, held against MnemoSessionService on a real mnemod.

One test per test of adk-python's tests/unittests/sessions/test_session_service.py
(tag v2.13.0) that states what every ``BaseSessionService`` owes its
callers; each test bears the upstream test's name and says which it mirrors.
Written anew here: the checks are the same, the code and the values are not.
Tests the upstream file ties to one backend (stale writers, a deleted
session, tied timestamps, padded and blank ids, repeated events) are
mirrored too, as they state behaviour ADK's runner relies on.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Iterator

import pytest
from google.adk.errors import StaleSessionError
from google.adk.errors.already_exists_error import AlreadyExistsError
from google.adk.errors.session_not_found_error import SessionNotFoundError
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.sessions.base_session_service import GetSessionConfig
from google.adk.tools.tool_confirmation import ToolConfirmation
from google.genai import types

from mnemo.adapters.adk import MnemoSessionService

pytestmark = pytest.mark.asyncio

APP = "shop"


def delta_event(delta: dict, invocation: str = "turn-1", author: str = "user", **fields: object) -> Event:
    return Event(invocation_id=invocation, author=author, actions=EventActions(state_delta=delta), **fields)


async def test_get_empty_session(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_empty_session: an unknown session reads as nothing."""
    assert await session_service.get_session(app_name=APP, user_id="ann", session_id="nope") is None


async def test_create_get_session(session_service: MnemoSessionService) -> None:
    """Mirrors test_create_get_session: create, read back equal, delete, gone."""
    made = await session_service.create_session(app_name=APP, user_id="ann", state={"cart": ["pen"]})
    assert (made.app_name, made.user_id, made.state) == (APP, "ann", {"cart": ["pen"]})
    assert made.id and made.last_update_time <= time.time()
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert read == made
    await session_service.delete_session(app_name=APP, user_id="ann", session_id=made.id)
    assert await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id) is None


async def test_create_and_list_sessions(session_service: MnemoSessionService) -> None:
    """Mirrors test_create_and_list_sessions: every created session is listed with its own state."""
    ids = [f"chat{n}" for n in range(4)]
    for sid in ids:
        await session_service.create_session(app_name=APP, user_id="ann", session_id=sid, state={"tag": sid * 2})
    listed = (await session_service.list_sessions(app_name=APP, user_id="ann")).sessions
    assert sorted(s.id for s in listed) == ids
    assert all(s.state == {"tag": s.id * 2} for s in listed)


async def test_list_sessions_ordered_by_last_update_time(session_service: MnemoSessionService) -> None:
    """Mirrors test_list_sessions_ordered_by_last_update_time: least recently active first."""
    for sid in ("x", "y", "z"):
        await session_service.create_session(app_name=APP, user_id="ann", session_id=sid)
    oldest = await session_service.get_session(app_name=APP, user_id="ann", session_id="x")
    await asyncio.sleep(0.01)
    await session_service.append_event(oldest, Event(invocation_id="turn-1", author="user"))
    listed = (await session_service.list_sessions(app_name=APP, user_id="ann")).sessions
    assert [s.id for s in listed] == ["y", "z", "x"]


async def test_list_sessions_all_users(session_service: MnemoSessionService) -> None:
    """Mirrors test_list_sessions_all_users: per user and app-wide, each with its merged state."""
    made = {("ann", "a1"): 1, ("ann", "a2"): 2, ("bob", "b1"): 3}
    for (user, sid), n in made.items():
        await session_service.create_session(app_name=APP, user_id=user, session_id=sid, state={"n": n})
    anns = (await session_service.list_sessions(app_name=APP, user_id="ann")).sessions
    assert {s.id: s.state for s in anns} == {"a1": {"n": 1}, "a2": {"n": 2}}
    bobs = (await session_service.list_sessions(app_name=APP, user_id="bob")).sessions
    assert [(s.id, s.state) for s in bobs] == [("b1", {"n": 3})]
    everyone = (await session_service.list_sessions(app_name=APP, user_id=None)).sessions
    assert {(s.user_id, s.id): s.state["n"] for s in everyone} == made


async def test_app_state_is_shared_by_all_users_of_app(session_service: MnemoSessionService) -> None:
    """Mirrors test_app_state_is_shared_by_all_users_of_app."""
    first = await session_service.create_session(
        app_name=APP, user_id="ann", session_id="s1", state={"app:currency": "EUR"}
    )
    await session_service.append_event(first, delta_event({"app:region": "eu"}))
    other = await session_service.create_session(app_name=APP, user_id="bob", session_id="s2")
    assert other.state == {"app:currency": "EUR", "app:region": "eu"}
    again = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert again.state["app:currency"] == "EUR" and again.state["app:region"] == "eu"


async def test_user_state_is_shared_only_by_user_sessions(session_service: MnemoSessionService) -> None:
    """Mirrors test_user_state_is_shared_only_by_user_sessions."""
    first = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1", state={"user:tz": "CET"})
    await session_service.append_event(first, delta_event({"user:lang": "de"}))
    second = await session_service.create_session(app_name=APP, user_id="ann", session_id="s2")
    assert second.state == {"user:tz": "CET", "user:lang": "de"}
    stranger = await session_service.create_session(app_name=APP, user_id="bob", session_id="s3")
    assert stranger.state == {}


async def test_session_state_is_not_shared(session_service: MnemoSessionService) -> None:
    """Mirrors test_session_state_is_not_shared."""
    first = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1", state={"step": 1})
    await session_service.append_event(first, delta_event({"draft": "hello"}))
    again = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert again.state["step"] == 1 and again.state["draft"] == "hello"
    second = await session_service.create_session(app_name=APP, user_id="ann", session_id="s2")
    assert second.state == {}


async def test_dict_valued_state_delta_replaces_stored_value(session_service: MnemoSessionService) -> None:
    """Mirrors test_dict_valued_state_delta_replaces_stored_value: no deep merge."""
    made = await session_service.create_session(
        app_name=APP, user_id="ann", session_id="s1", state={"address": {"city": "Oslo", "zip": "0150"}}
    )
    await session_service.append_event(made, delta_event({"address": {"city": "Bergen"}}))
    again = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert again.state["address"] == {"city": "Bergen"}
    assert made.state["address"] == {"city": "Bergen"}


async def test_none_valued_state_delta_is_stored_not_dropped(session_service: MnemoSessionService) -> None:
    """Mirrors test_none_valued_state_delta_is_stored_not_dropped: None is a value, not a delete."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1", state={"ready": True})
    await session_service.append_event(made, delta_event({"ready": None}))
    again = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert "ready" in again.state and again.state["ready"] is None
    assert "ready" in made.state and made.state["ready"] is None


async def test_boolean_state_survives_unrelated_state_delta(session_service: MnemoSessionService) -> None:
    """Mirrors test_boolean_state_survives_unrelated_state_delta: a false stays a boolean false."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1", state={"paid": False})
    await session_service.append_event(made, delta_event({"shipped": True}))
    again = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    for state in (again.state, made.state):
        assert state["paid"] is False and state["shipped"] is True


async def test_app_state_dict_valued_delta_replaces_stored_value(session_service: MnemoSessionService) -> None:
    """Mirrors test_app_state_dict_valued_delta_replaces_stored_value."""
    made = await session_service.create_session(
        app_name=APP, user_id="ann", session_id="s1", state={"app:limits": {"daily": 5, "weekly": 20}}
    )
    await session_service.append_event(made, delta_event({"app:limits": {"daily": 7}}))
    other = await session_service.create_session(app_name=APP, user_id="bob", session_id="s2")
    assert other.state["app:limits"] == {"daily": 7}
    assert made.state["app:limits"] == {"daily": 7}


async def test_user_state_none_valued_delta_is_stored_not_dropped(session_service: MnemoSessionService) -> None:
    """Mirrors test_user_state_none_valued_delta_is_stored_not_dropped."""
    made = await session_service.create_session(
        app_name=APP, user_id="ann", session_id="s1", state={"user:theme": "light"}
    )
    await session_service.append_event(made, delta_event({"user:theme": None}))
    sibling = await session_service.create_session(app_name=APP, user_id="ann", session_id="s2")
    for state in (sibling.state, made.state):
        assert "user:theme" in state and state["user:theme"] is None


async def test_temp_state_is_not_persisted_in_state_or_events(session_service: MnemoSessionService) -> None:
    """Mirrors test_temp_state_is_not_persisted_in_state_or_events."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1")
    event = delta_event({"temp:scratch": 42, "kept": "yes"})
    await session_service.append_event(made, event)
    assert made.state["temp:scratch"] == 42 and made.state["kept"] == "yes"
    assert "temp:scratch" not in event.actions.state_delta
    assert event.actions.state_delta["kept"] == "yes"


async def test_temp_state_visible_across_sequential_events(session_service: MnemoSessionService) -> None:
    """Mirrors test_temp_state_visible_across_sequential_events: a later agent of the turn reads it."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1")
    first = delta_event({"temp:plan": "step one"}, author="planner")
    await session_service.append_event(made, first)
    assert made.state["temp:plan"] == "step one"
    assert "temp:plan" not in first.actions.state_delta


async def test_get_session_respects_user_id(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_session_respects_user_id: one session id, two users, two sessions."""
    anns = await session_service.create_session(app_name=APP, user_id="ann", session_id="same")
    await session_service.append_event(anns, Event(invocation_id="turn-1", author="user"))
    await session_service.create_session(app_name=APP, user_id="bob", session_id="same")
    bobs = await session_service.get_session(app_name=APP, user_id="bob", session_id="same")
    assert bobs.user_id == "bob" and bobs.events == []


async def test_create_session_with_existing_id_raises_error(session_service: MnemoSessionService) -> None:
    """Mirrors test_create_session_with_existing_id_raises_error: ADK's AlreadyExistsError."""
    await session_service.create_session(app_name=APP, user_id="ann", session_id="taken")
    with pytest.raises(AlreadyExistsError):
        await session_service.create_session(app_name=APP, user_id="ann", session_id="taken")


async def test_create_session_with_padded_duplicate_id_raises_error(session_service: MnemoSessionService) -> None:
    """Mirrors test_create_session_with_padded_duplicate_id_raises_error (upstream: in-memory only)."""
    await session_service.create_session(app_name=APP, user_id="ann", session_id="cart-7", state={"v": "first"})
    with pytest.raises(AlreadyExistsError):
        await session_service.create_session(app_name=APP, user_id="ann", session_id=" cart-7\t", state={"v": "second"})
    kept = await session_service.get_session(app_name=APP, user_id="ann", session_id="cart-7")
    assert kept.state["v"] == "first"


async def test_padded_session_id_reads_and_deletes(session_service: MnemoSessionService) -> None:
    """Mirrors test_padded_session_id_reads_and_deletes: the padded id works on every call."""
    padded = "  ticket-9 "
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id=padded, state={"open": 1})
    assert made.id == "ticket-9"
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=padded)
    assert read is not None and read.id == "ticket-9" and read.state["open"] == 1
    await session_service.delete_session(app_name=APP, user_id="ann", session_id=padded)
    assert await session_service.get_session(app_name=APP, user_id="ann", session_id="ticket-9") is None


async def test_create_session_with_blank_id_generates_one(session_service: MnemoSessionService) -> None:
    """Mirrors test_create_session_with_blank_id_generates_one (upstream: in-memory only)."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id=" \n ")
    assert made.id.strip() == made.id and made.id


async def test_append_event_bytes(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_bytes: inline bytes and a grounding blob come back as bytes."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    content = types.Content(role="user", parts=[types.Part.from_bytes(data=b"\x89PNG fake", mime_type="image/png")])
    grounding = types.GroundingMetadata(search_entry_point=types.SearchEntryPoint(sdk_blob=b"blob-bytes"))
    await session_service.append_event(
        made, Event(invocation_id="turn-1", author="user", content=content, grounding_metadata=grounding)
    )
    assert made.events[0].content == content
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert len(read.events) == 1
    assert read.events[0].content == content and read.events[0].grounding_metadata == grounding


async def test_append_event_complete(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_complete: an event with every field reads back equal, session and all."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    event = Event(
        invocation_id="turn-1",
        author="user",
        content=types.Content(role="user", parts=[types.Part(text="the whole event")]),
        turn_complete=True,
        partial=False,
        actions=EventActions(artifact_delta={"report.pdf": 2}, transfer_to_agent="billing", escalate=True),
        long_running_tool_ids={"job-1", "job-2"},
        error_code="E42",
        error_message="not really an error",
        interrupted=True,
        grounding_metadata=types.GroundingMetadata(web_search_queries=["mnemod"]),
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=3, candidates_token_count=4, total_token_count=7
        ),
        citation_metadata=types.CitationMetadata(),
        custom_metadata={"channel": "web"},
        timestamp=1_750_000_000.25,
        input_transcription=types.Transcription(text="spoken in", finished=True),
        output_transcription=types.Transcription(text="spoken out", finished=True),
    )
    await session_service.append_event(made, event)
    assert await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id) == made


async def test_append_event_with_requested_tool_confirmations(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_with_requested_tool_confirmations."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    confirmation = ToolConfirmation(hint="delete the album?", confirmed=False, payload={"album": "summer"})
    await session_service.append_event(
        made,
        Event(
            invocation_id="turn-1",
            author="user",
            actions=EventActions(requested_tool_confirmations={"call-1": confirmation}),
        ),
    )
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert len(read.events) == 1
    got = read.events[0].actions.requested_tool_confirmations["call-1"]
    assert (got.hint, got.payload, got.confirmed) == ("delete the album?", {"album": "summer"}, False)


async def test_append_event_with_non_serializable_state_delta(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_with_non_serializable_state_delta (upstream: database, sqlite).

    A value JSON cannot hold is kept as its text; the event and the rest of the delta are stored.
    """
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(made, delta_event({"hook": lambda: None, "count": 3}))
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert len(read.events) == 1
    assert read.state["count"] == 3 and isinstance(read.state["hook"], str)


async def test_session_last_update_time_updates_on_event(session_service: MnemoSessionService) -> None:
    """Mirrors test_session_last_update_time_updates_on_event: the event's own timestamp."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    created_at = made.last_update_time
    later = created_at + 30.5
    await session_service.append_event(made, Event(invocation_id="turn-1", author="user", timestamp=later))
    assert made.last_update_time == pytest.approx(later, abs=1e-6)
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert read.last_update_time == pytest.approx(later, abs=1e-6)
    assert read.last_update_time > created_at


async def test_append_event_to_deleted_session_raises_session_not_found(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_to_deleted_session_raises_session_not_found (upstream: database, sqlite)."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.delete_session(app_name=APP, user_id="ann", session_id=made.id)
    with pytest.raises(SessionNotFoundError):
        await session_service.append_event(made, Event(invocation_id="turn-1", author="user"))


async def test_append_event_to_stale_session(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_to_stale_session (upstream: database): StaleSessionError, nothing stored."""
    now = time.time()
    original = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(original, delta_event({"a": 1}, "turn-1", timestamp=now + 1))
    current = await session_service.get_session(app_name=APP, user_id="ann", session_id=original.id)
    await session_service.append_event(current, delta_event({"b": 2}, "turn-2", timestamp=now + 2))
    assert original.last_update_time < current.last_update_time
    assert len(original.events) == 1 and "b" not in original.state
    with pytest.raises(StaleSessionError, match="modified in storage"):
        await session_service.append_event(original, delta_event({"c": 3}, "turn-3", timestamp=now + 3))
    final = await session_service.get_session(app_name=APP, user_id="ann", session_id=original.id)
    assert [e.invocation_id for e in final.events] == ["turn-1", "turn-2"]
    assert (final.state.get("a"), final.state.get("b"), final.state.get("c")) == (1, 2, None)


async def test_sqlite_append_event_uses_typed_stale_session_error(session_service: MnemoSessionService) -> None:
    """Mirrors test_sqlite_append_event_uses_typed_stale_session_error: a deep copy goes stale too."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    copy = made.model_copy(deep=True)
    later = made.last_update_time + 1
    await session_service.append_event(made, Event(invocation_id="won", author="user", timestamp=later))
    with pytest.raises(StaleSessionError) as raised:
        await session_service.append_event(copy, Event(invocation_id="lost", author="user", timestamp=later))
    assert isinstance(raised.value, ValueError)


async def test_append_event_concurrent_stale_sessions_reject_stale_writer(
    session_service: MnemoSessionService,
) -> None:
    """Mirrors test_append_event_concurrent_stale_sessions_reject_stale_writer: one of two racing copies wins."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    rounds = 4
    for n in range(rounds):
        latest = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
        left, right = latest.model_copy(deep=True), latest.model_copy(deep=True)
        base = latest.last_update_time + 10
        outcomes = await asyncio.gather(
            session_service.append_event(left, delta_event({f"left{n}": n}, f"l{n}", timestamp=base + 1)),
            session_service.append_event(right, delta_event({f"right{n}": n}, f"r{n}", timestamp=base + 2)),
            return_exceptions=True,
        )
        failures = [o for o in outcomes if isinstance(o, Exception)]
        assert len(failures) == 1 and isinstance(failures[0], StaleSessionError)
        assert "modified in storage" in str(failures[0])
    final = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert len(final.events) == rounds
    for n in range(rounds):
        assert (f"left{n}" in final.state) != (f"right{n}" in final.state)


async def test_get_session_with_config(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_session_with_config: num_recent_events (0 means none) and after_timestamp."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    base = float(int(time.time()))
    for n in range(1, 7):
        await session_service.append_event(made, Event(author="user", timestamp=base + n))

    async def read(**config: float) -> list:
        got = await session_service.get_session(
            app_name=APP, user_id="ann", session_id=made.id, config=GetSessionConfig(**config) if config else None
        )
        return [e.timestamp for e in got.events]

    assert len(await read()) == 6
    assert await read(num_recent_events=0) == []
    assert await read(num_recent_events=2) == [base + 5, base + 6]
    assert await read(after_timestamp=base + 4) == [base + 4, base + 5, base + 6]
    assert await read(after_timestamp=base + 60) == []
    assert await read(after_timestamp=base + 4, num_recent_events=2) == [base + 5, base + 6]


async def test_partial_events_are_not_persisted(session_service: MnemoSessionService) -> None:
    """Mirrors test_partial_events_are_not_persisted."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(made, Event(author="user", partial=True))
    assert made.events == []
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert read.events == []


async def test_get_user_state_returns_empty_dict_when_no_state_exists(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_returns_empty_dict_when_no_state_exists."""
    assert await session_service.get_user_state(app_name=APP, user_id="ann") == {}


async def test_get_user_state_returns_state_written_via_append_event(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_returns_state_written_via_append_event: unprefixed keys, user scope only."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    delta = {"user:card": {"last4": "4242"}, "local": 1}
    await session_service.append_event(made, delta_event(delta, author="system"))
    assert await session_service.get_user_state(app_name=APP, user_id="ann") == {"card": {"last4": "4242"}}


async def test_get_user_state_is_not_visible_across_users(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_is_not_visible_across_users."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(made, delta_event({"user:pin": "1234"}, author="system"))
    assert await session_service.get_user_state(app_name=APP, user_id="bob") == {}


async def test_get_user_state_is_not_visible_across_apps(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_is_not_visible_across_apps."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(made, delta_event({"user:pin": "1234"}, author="system"))
    assert await session_service.get_user_state(app_name="other_shop", user_id="ann") == {}


async def test_get_user_state_available_before_session_is_created(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_available_before_session_is_created: readable without a session id."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    await session_service.append_event(made, delta_event({"user:prefs": {"units": "metric"}}, author="system"))
    assert await session_service.get_user_state(app_name=APP, user_id="ann") == {"prefs": {"units": "metric"}}


async def test_get_user_state_reflects_latest_write(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_user_state_reflects_latest_write."""
    made = await session_service.create_session(app_name=APP, user_id="ann")
    for visits in (1, 2, 3):
        await session_service.append_event(made, delta_event({"user:visits": visits}, author="system"))
    assert (await session_service.get_user_state(app_name=APP, user_id="ann"))["visits"] == 3


@pytest.fixture
def new_york_time() -> Iterator[None]:
    """Local time in a zone whose autumn repeats an hour (POSIX only, as upstream)."""
    if not hasattr(time, "tzset"):
        yield
        return
    before = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


async def test_get_session_keeps_exact_epoch_across_a_repeated_local_hour(
    session_service: MnemoSessionService, new_york_time: None
) -> None:
    """Mirrors test_get_session_keeps_exact_epoch_across_a_repeated_local_hour."""
    # 05:15 and 06:45 UTC on 2024-11-03 are both 01:xx in New York, on either side of the clocks going back.
    epochs = [1730610900.0, 1730616300.0]
    made = await session_service.create_session(app_name=APP, user_id="ann")
    for epoch in epochs:
        await session_service.append_event(made, Event(author="user", timestamp=epoch))
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert [e.timestamp for e in read.events] == epochs


async def test_get_session_orders_tied_timestamps_by_id(session_service: MnemoSessionService) -> None:
    """Mirrors test_get_session_orders_tied_timestamps_by_id (upstream: database, sqlite).

    mnemod keeps events in the order they were appended (its seq), which is
    stable between reads; appended in id order, they read back in id order.
    """
    made = await session_service.create_session(app_name=APP, user_id="ann")
    for event_id in ("ev-a", "ev-k", "ev-q"):
        await session_service.append_event(made, Event(author="user", id=event_id, timestamp=200.0))
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id=made.id)
    assert [e.id for e in read.events] == ["ev-a", "ev-k", "ev-q"]


async def test_list_sessions_sync_strips_events_and_merges_scoped_state(session_service: MnemoSessionService) -> None:
    """Mirrors test_list_sessions_sync_strips_events_and_merges_scoped_state (through the async call)."""
    made = await session_service.create_session(
        app_name=APP,
        user_id="ann",
        session_id="s1",
        state={"app:brand": "acme", "user:plan": "pro", "mine": 1, "temp:gone": 0},
    )
    await session_service.append_event(made, delta_event({"mine2": 2}))
    listed = (await session_service.list_sessions(app_name=APP, user_id="ann")).sessions
    assert [s.id for s in listed] == ["s1"]
    assert listed[0].events == []
    assert listed[0].state == {"app:brand": "acme", "user:plan": "pro", "mine": 1, "mine2": 2}


async def test_list_sessions_sync_unknown_app_or_user_returns_empty_response(
    session_service: MnemoSessionService,
) -> None:
    """Mirrors test_list_sessions_sync_unknown_app_or_user_returns_empty_response (through the async call)."""
    await session_service.create_session(app_name=APP, user_id="ann", session_id="s1")
    assert (await session_service.list_sessions(app_name="nobody_app")).sessions == []
    assert (await session_service.list_sessions(app_name=APP, user_id="nobody")).sessions == []
    assert [s.id for s in (await session_service.list_sessions(app_name=APP)).sessions] == ["s1"]


async def test_append_event_is_idempotent_for_same_event_id(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_event_is_idempotent_for_same_event_id (upstream: in-memory only)."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1")
    event = delta_event({"count": 1})
    for delivered in (event, event, event.model_copy(deep=True)):
        await session_service.append_event(made, delivered)
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert [e.id for e in read.events].count(event.id) == 1
    assert read.state["count"] == 1


async def test_append_different_events_not_deduplicated(session_service: MnemoSessionService) -> None:
    """Mirrors test_append_different_events_not_deduplicated (upstream: in-memory only)."""
    made = await session_service.create_session(app_name=APP, user_id="ann", session_id="s1")
    await session_service.append_event(made, Event(id="fixed", invocation_id="one", author="user"))
    await session_service.append_event(made, Event(id="fixed", invocation_id="two", author="agent"))
    read = await session_service.get_session(app_name=APP, user_id="ann", session_id="s1")
    assert [e.author for e in read.events] == ["user", "agent"]
