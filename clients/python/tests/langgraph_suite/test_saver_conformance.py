"""LangGraph's own checkpointer conformance suite (langgraph-checkpoint-conformance 0.0.2) on MnemoSaver.

``validate()`` runs every capability suite against a fresh saver (a user of
its own) of one mnemod: the base capabilities and the optional ones the saver
implements (delete_for_runs, copy_thread, prune).
"""

from __future__ import annotations

import itertools
from typing import AsyncIterator, Callable

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.capabilities import ALL_CAPABILITIES

from mnemo import Client
from mnemo.adapters.langgraph import MnemoSaver


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_validate_passes_every_capability(backend: str, start_daemon: Callable[..., object]) -> None:
    daemon = start_daemon(backend)
    users = itertools.count()
    with Client(daemon.url) as client:  # type: ignore[attr-defined]

        @checkpointer_test(name=f"MnemoSaver-{backend}")
        async def mnemo_saver() -> AsyncIterator[MnemoSaver]:
            yield MnemoSaver(client=client, app="lg", user=f"suite{next(users)}")

        report = await validate(mnemo_saver)
    failures = {name: result.failures for name, result in report.results.items() if result.passed is not True}
    assert failures == {}
    assert {name for name, result in report.results.items() if result.detected} == {c.value for c in ALL_CAPABILITIES}
    assert report.conformance_level() == "FULL"
    assert sum(result.tests_passed for result in report.results.values()) > 50
