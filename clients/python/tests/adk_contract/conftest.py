"""The ``session_service`` fixture of the ADK contract tests: MnemoSessionService on a real mnemod.

Each test runs once per storage (memory, sqlite), on a daemon of its own.
A test whose behaviour mnemod's adapter must keep different from ADK's is
listed in DIVERGENCES with a one-line reason and runs as a strict xfail, so
it fails the suite the day the adapter starts to pass it. The same reasons
are in clients/python/README.md, README.md and docs/api.md (names).
"""

from __future__ import annotations

from typing import Callable, Dict

import pytest

from mnemo import Client, RetryPolicy
from mnemo.adapters.adk import MnemoSessionService

# Contract test name -> why MnemoSessionService answers differently, on purpose.
DIVERGENCES: Dict[str, str] = {
    "test_append_different_events_not_deduplicated": (
        "mnemod takes an event id as the client's retry key: another event under a stored id is 409, never a copy"
    ),
    "test_list_sessions_with_empty_user_id_lists_only_that_user": (
        "mnemod names (user ids too) are 1 to 128 bytes: an empty user id is refused with 400, never stored"
    ),
}


@pytest.fixture(params=["memory", "sqlite"])
def session_service(request: pytest.FixtureRequest, start_daemon: Callable[..., object]) -> MnemoSessionService:
    reason = DIVERGENCES.get(request.node.originalname)
    if reason is not None:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=reason))
    daemon = start_daemon(request.param)
    client = Client(daemon.url, retry=RetryPolicy(retries=2))  # type: ignore[attr-defined]
    request.addfinalizer(client.close)
    return MnemoSessionService(client)
