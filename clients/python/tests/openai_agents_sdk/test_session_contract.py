"""The OpenAI Agents SDK 0.24's own session tests, held against MnemoSession on a real mnemod.

One test per test of openai-agents-python's tests/memory/test_session.py and
tests/memory/test_session_limit.py (v0.24.0) that states what a ``Session``
owes the SDK; each bears the upstream test's name and says which it mirrors.
Written anew here (the SDK's ``agents.testing.ScriptedModel`` stands in for
the upstream tests' fake model). Left out, as they involve no session of
ours: the tests of SQLiteSession's own internals (its worker-thread
connections, its shared file lock), of ``SessionSettings.resolve`` alone, and
of a run without a session (test_session_memory_disabled_parametrized).
Each test runs against memory and sqlite storage (the ``daemon`` fixture).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Callable, List

import pytest
from agents import Agent, RunConfig, Runner
from agents.memory import SessionSettings
from agents.testing import ScriptedModel, assistant_message

from mnemo import Client
from mnemo.adapters.openai_agents import MnemoSession, mnemo_sessions

pytestmark = pytest.mark.asyncio
RUNNERS = ["run", "run_sync", "run_streamed"]
Make = Callable[..., MnemoSession]


@pytest.fixture
def make(client: Client) -> Make:
    return mnemo_sessions(client, app="agents", user="ann")


def _run_sync_in_own_loop(agent: Agent, given: Any, **options: Any) -> Any:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        return Runner.run_sync(agent, given, **options)
    finally:
        loop.close()


async def run_agent(how: str, agent: Agent, given: Any, **options: Any) -> Any:
    """One turn through Runner.run, Runner.run_sync (in a thread with its own loop) or Runner.run_streamed."""
    if how == "run":
        return await Runner.run(agent, given, **options)
    if how == "run_sync":
        return await asyncio.to_thread(_run_sync_in_own_loop, agent, given, **options)
    streamed = Runner.run_streamed(agent, given, **options)
    async for _ in streamed.stream_events():
        pass
    return streamed


def scripted(*replies: str) -> ScriptedModel:
    return ScriptedModel([[assistant_message(text)] for text in replies])


def last_input(model: ScriptedModel) -> List[Any]:
    call = model.last_call
    assert call is not None
    return list(call.input)


def contents(items: List[Any]) -> List[Any]:
    return [item.get("content") for item in items]


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_memory_basic_functionality_parametrized(how: str, make: Make) -> None:
    """Mirrors test_session_memory_basic_functionality_parametrized: the second turn sees the first."""
    model = scripted("Paris", "France")
    agent = Agent(name="geo", model=model)
    session = make("basic")
    assert (await run_agent(how, agent, "Where is the Louvre?", session=session)).final_output == "Paris"
    assert (await run_agent(how, agent, "Which country?", session=session)).final_output == "France"
    assert len(last_input(model)) == 3  # question, answer, new question


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_memory_with_explicit_instance_parametrized(how: str, make: Make) -> None:
    """Mirrors test_session_memory_with_explicit_instance_parametrized."""
    model = scripted("Hi", "You said hello")
    agent = Agent(name="echo", model=model)
    session = make("explicit")
    assert (await run_agent(how, agent, "hello", session=session)).final_output == "Hi"
    second = await run_agent(how, agent, "What did I say?", session=session)
    assert second.final_output == "You said hello"
    assert contents(last_input(model))[0] == "hello"


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_memory_different_sessions_parametrized(how: str, make: Make) -> None:
    """Mirrors test_session_memory_different_sessions_parametrized: two ids, two histories."""
    model = scripted("noted: tea", "noted: coffee", "you like tea")
    agent = Agent(name="prefs", model=model)
    first, second = make("first"), make("second")
    await run_agent(how, agent, "I like tea", session=first)
    await run_agent(how, agent, "I like coffee", session=second)
    result = await run_agent(how, agent, "What do I like?", session=first)
    assert result.final_output == "you like tea"
    seen = contents(last_input(model))
    assert "I like tea" in seen and "I like coffee" not in seen


async def test_sqlite_session_memory_direct(make: Make) -> None:
    """Mirrors test_sqlite_session_memory_direct: add, read back, clear."""
    session = make("direct")
    await session.add_items([{"role": "user", "content": "ping"}, {"role": "assistant", "content": "pong"}])
    got = await session.get_items()
    assert [(i.get("role"), i.get("content")) for i in got] == [("user", "ping"), ("assistant", "pong")]
    await session.clear_session()
    assert await session.get_items() == []


async def test_sqlite_session_memory_pop_item(make: Make) -> None:
    """Mirrors test_sqlite_session_memory_pop_item: newest first, None when empty."""
    session = make("pops")
    assert await session.pop_item() is None
    items = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]
    await session.add_items(items)
    assert len(await session.get_items()) == 3
    assert await session.pop_item() == items[2]
    assert contents(await session.get_items()) == ["a", "b"]
    assert await session.pop_item() == items[1]
    assert await session.pop_item() == items[0]
    assert await session.pop_item() is None
    assert await session.get_items() == []


async def test_session_memory_pop_different_sessions(make: Make) -> None:
    """Mirrors test_session_memory_pop_different_sessions: a pop touches its own session only."""
    one, two = make("one"), make("two")
    await one.add_items([{"role": "user", "content": "one only"}])
    await two.add_items([{"role": "user", "content": "two first"}, {"role": "user", "content": "two second"}])
    assert (await two.pop_item() or {}).get("content") == "two second"
    assert contents(await one.get_items()) == ["one only"]
    assert contents(await two.get_items()) == ["two first"]


async def test_sqlite_session_get_items_with_limit(make: Make) -> None:
    """Mirrors test_sqlite_session_get_items_with_limit."""
    session = make("limits")
    texts = [f"item {n}" for n in range(6)]
    await session.add_items([{"role": ("user", "assistant")[n % 2], "content": t} for n, t in enumerate(texts)])
    assert contents(await session.get_items()) == texts
    assert contents(await session.get_items(limit=2)) == texts[-2:]
    assert contents(await session.get_items(limit=4)) == texts[-4:]
    assert contents(await session.get_items(limit=50)) == texts
    assert await session.get_items(limit=0) == []


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_memory_appends_list_input_by_default(how: str, make: Make) -> None:
    """Mirrors test_session_memory_appends_list_input_by_default: history then the list given."""
    session = make("lists")
    history = [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "kept"}]
    await session.add_items(history)
    model = scripted("fine")
    given = [{"role": "user", "content": "now"}]
    await run_agent(how, Agent(name="lists", model=model), given, session=session)
    assert last_input(model) == history + given


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_callback_prepared_input(how: str, make: Make) -> None:
    """Mirrors test_session_callback_prepared_input: session_input_callback shapes what the model gets."""
    session = make("callback")
    history = [{"role": "user", "content": "first question"}, {"role": "assistant", "content": "first answer"}]
    await session.add_items(history)

    def users_only(old: List[Any], new: List[Any]) -> List[Any]:
        return [item for item in old if item["role"] == "user"] + new

    model = scripted("ok")
    given = [{"role": "user", "content": "second question"}]
    await run_agent(
        how, Agent(name="cb", model=model), given, session=session,
        run_config=RunConfig(session_input_callback=users_only),
    )
    assert last_input(model) == [history[0], given[0]]


async def test_sqlite_session_unicode_content(make: Make) -> None:
    """Mirrors test_sqlite_session_unicode_content."""
    session = make("unicode")
    texts = ["grüß dich", "🦀✨", "שלום", "日本語"]
    await session.add_items([{"role": "user", "content": t} for t in texts])
    assert contents(await session.get_items()) == texts


async def test_sqlite_session_special_characters_and_sql_injection(make: Make) -> None:
    """Mirrors test_sqlite_session_special_characters_and_sql_injection: stored as given."""
    session = make("quotes")
    texts = ["it's", "'; DELETE FROM events; --", '{"not": "json"}', "back\\slash \"quoted\"", "plain"]
    await session.add_items([{"role": "user", "content": t} for t in texts])
    assert contents(await session.get_items()) == texts


async def test_sqlite_session_concurrent_access(make: Make) -> None:
    """Mirrors test_sqlite_session_concurrent_access: writes from several threads all land."""
    session = make("threads")
    texts = [f"parallel {n}" for n in range(10)]

    def add(text: str) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(session.add_items([{"role": "user", "content": text}]))
        finally:
            loop.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=5) as pool:
        list(pool.map(add, texts))
    assert sorted(contents(await session.get_items())) == sorted(texts)


async def test_session_add_items_exception_propagates_in_streamed(make: Make) -> None:
    """Mirrors test_session_add_items_exception_propagates_in_streamed: no hang, the error comes out."""
    session = make("failing")

    async def refuse(_items: Any, **_options: Any) -> None:
        raise RuntimeError("the session refused the items")

    session.add_items = refuse  # type: ignore[method-assign]
    streamed = Runner.run_streamed(Agent(name="f", model=scripted("never")), "hello", session=session)

    async def drain() -> None:
        async for _ in streamed.stream_events():
            pass

    with pytest.raises(RuntimeError, match="refused the items"):
        await asyncio.wait_for(drain(), timeout=10)


async def test_session_settings_default(make: Make) -> None:
    """Mirrors test_session_settings_default: an empty SessionSettings."""
    session = make("defaults")
    assert isinstance(session.session_settings, SessionSettings)
    assert session.session_settings.limit is None


async def test_session_settings_constructor(make: Make) -> None:
    """Mirrors test_session_settings_constructor."""
    session = make("configured", SessionSettings(limit=7))
    assert session.session_settings.limit == 7


async def test_get_items_uses_session_settings_limit(make: Make) -> None:
    """Mirrors test_get_items_uses_session_settings_limit."""
    session = make("limited", SessionSettings(limit=2))
    await session.add_items([{"role": "user", "content": f"m{n}"} for n in range(5)])
    assert contents(await session.get_items()) == ["m3", "m4"]


async def test_get_items_explicit_limit_overrides_session_settings(make: Make) -> None:
    """Mirrors test_get_items_explicit_limit_overrides_session_settings."""
    session = make("override", SessionSettings(limit=4))
    await session.add_items([{"role": "user", "content": f"m{n}"} for n in range(8)])
    assert contents(await session.get_items(limit=1)) == ["m7"]


async def test_runner_with_session_settings_override(make: Make) -> None:
    """Mirrors test_runner_with_session_settings_override: RunConfig's settings win over the session's."""
    session = make("runner-override", SessionSettings(limit=50))
    await session.add_items([{"role": "user", "content": f"turn {n}"} for n in range(8)])
    model = scripted("done")
    await Runner.run(
        Agent(name="o", model=model), "latest", session=session,
        run_config=RunConfig(session_settings=SessionSettings(limit=3)),
    )
    assert contents(last_input(model)) == ["turn 5", "turn 6", "turn 7", "latest"]


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_limit_parameter(how: str, make: Make) -> None:
    """Mirrors test_session_limit_parameter (test_session_limit.py)."""
    session = make("limit-param")
    model = scripted("R1", "R2", "R3", "R4")
    agent = Agent(name="l", model=model)
    for n in (1, 2, 3):
        await run_agent(how, agent, f"M{n}", session=session)
    assert len(await session.get_items()) == 6
    await run_agent(how, agent, "M4", session=session, run_config=RunConfig(session_settings=SessionSettings(limit=2)))
    seen = last_input(model)
    assert len(seen) == 3
    assert seen[0].get("content") == "M3" and seen[1]["content"][0]["text"] == "R3" and seen[2].get("content") == "M4"


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_limit_zero(how: str, make: Make) -> None:
    """Mirrors test_session_limit_zero (test_session_limit.py): no history at all."""
    session = make("limit-zero")
    model = scripted("R1", "R2", "R3")
    agent = Agent(name="z", model=model)
    await run_agent(how, agent, "M1", session=session)
    await run_agent(how, agent, "M2", session=session)
    await run_agent(how, agent, "M3", session=session, run_config=RunConfig(session_settings=SessionSettings(limit=0)))
    assert contents(last_input(model)) == ["M3"]


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_limit_none_gets_all_history(how: str, make: Make) -> None:
    """Mirrors test_session_limit_none_gets_all_history (test_session_limit.py)."""
    session = make("limit-none")
    model = scripted(*[f"R{n}" for n in range(1, 6)])
    agent = Agent(name="n", model=model)
    for n in range(1, 5):
        await run_agent(how, agent, f"M{n}", session=session)
    assert len(await session.get_items()) == 8
    await run_agent(
        how, agent, "M5", session=session, run_config=RunConfig(session_settings=SessionSettings(limit=None))
    )
    seen = last_input(model)
    assert len(seen) == 9 and seen[0].get("content") == "M1" and seen[-1].get("content") == "M5"


@pytest.mark.parametrize("how", RUNNERS)
async def test_session_limit_larger_than_history(how: str, make: Make) -> None:
    """Mirrors test_session_limit_larger_than_history (test_session_limit.py)."""
    session = make("limit-large")
    model = scripted("R1", "R2")
    agent = Agent(name="g", model=model)
    await run_agent(how, agent, "M1", session=session)
    await run_agent(how, agent, "M2", session=session, run_config=RunConfig(session_settings=SessionSettings(limit=40)))
    seen = last_input(model)
    assert len(seen) == 3
    assert seen[0].get("content") == "M1" and seen[1]["content"][0]["text"] == "R1" and seen[2].get("content") == "M2"


async def test_session_limit_negative_returns_empty(make: Make) -> None:
    """Mirrors test_session_limit_negative_returns_empty (test_session_limit.py)."""
    session = make("limit-negative")
    await session.add_items([{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}])
    assert await session.get_items(limit=-3) == []
    assert await session.get_items(limit=0) == []
    assert len(await session.get_items(limit=1)) == 1
    assert len(await session.get_items()) == 2
