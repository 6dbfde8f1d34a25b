"""Starts a real mnemod per test (memory or sqlite storage) on a free port and a Unix socket.

The daemon comes from MNEMOD_BIN and its plugins from MNEMO_PLUGIN_DIR (ctest
sets both to the build tree's); a failing test prints the daemon's log.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

CLIENT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CLIENT_DIR))
sys.path.insert(0, str(CLIENT_DIR.parent.parent / "tests" / "fixtures"))

from mnemo import Client, RetryPolicy  # noqa: E402
from mnemod_daemon import Daemon, free_port  # noqa: E402,F401 (free_port: for the tests)

BACKENDS = ["memory", "sqlite"]

# The suites that prove the adapters on the real frameworks need the packages of
# requirements-test.lock (frameworks/run.sh, ctest python_adk and the others, installs
# them into a venv); under Debian's python3 (ctest python_client) they are not collected.
FRAMEWORK_SUITES = {"adk_contract": "google.adk", "openai_agents_sdk": "agents.memory",
                    "langgraph_suite": "langgraph.checkpoint.base", "mcp_sdk": "mcp.client"}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


collect_ignore = [folder for folder, module in FRAMEWORK_SUITES.items() if not _installed(module)]


class Sleeps:
    """A RetryPolicy sleep that records the waits instead of sleeping them."""

    def __init__(self) -> None:
        self.waits: List[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for daemon in getattr(item, "_mnemo_daemons", []):
            report.sections.append((f"mnemod log ({daemon.backend}, {daemon.dir})", daemon.log()))


@pytest.fixture
def start_daemon(request: pytest.FixtureRequest) -> Iterator[Callable[..., Daemon]]:
    """Starts daemons with extra config lines: start_daemon(backend, server="  key: v\\n", sections="...")."""
    started: List[Daemon] = []
    request.node._mnemo_daemons = started

    def start(backend: str = "memory", server: str = "", sections: str = "") -> Daemon:
        daemon = Daemon(backend, server, sections)
        started.append(daemon)
        return daemon.start()

    yield start
    # A crash or a sanitizer report at exit fails the test that ran the daemon.
    problems = [problem for problem in (daemon.stop() for daemon in started) if problem]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture(params=BACKENDS)
def daemon(request: pytest.FixtureRequest, start_daemon: Callable[..., Daemon]) -> Daemon:
    return start_daemon(request.param)


@pytest.fixture
def client(daemon: Daemon) -> Iterator[Client]:
    with Client(daemon.url, retry=RetryPolicy(retries=2, sleep=Sleeps())) as c:
        yield c
