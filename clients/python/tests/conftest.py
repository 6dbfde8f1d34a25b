"""Starts a real mnemod per test (memory or sqlite storage) on a free port and a Unix socket.

The daemon comes from MNEMOD_BIN and its plugins from MNEMO_PLUGIN_DIR (ctest
sets both to the build tree's); a failing test prints the daemon's log.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator, List, Optional

import pytest

CLIENT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CLIENT_DIR))

from mnemo import Client, RetryPolicy  # noqa: E402

BACKENDS = ["memory", "sqlite"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _required_env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.exit(
            f"{name} is not set: run these tests through ctest, or set MNEMOD_BIN=build/daemon/mnemod "
            "and MNEMO_PLUGIN_DIR=build/plugins",
            returncode=2,
        )
    return value


class Daemon:
    """One mnemod process with its own folder, config, TCP port and Unix socket."""

    def __init__(self, backend: str, server: str = "", sections: str = "") -> None:
        self.backend = backend
        # Short: a Unix socket path must fit in 108 bytes.
        self.dir = Path(tempfile.mkdtemp(prefix="mnemo-py-"))
        self.port = free_port()
        self.socket_path = str(self.dir / "api.sock")
        self.url = f"http://127.0.0.1:{self.port}"
        self.unix_url = f"unix:{self.socket_path}"
        storage = f"storage:\n  plugin: {backend}\n  plugin_dir: {_required_env('MNEMO_PLUGIN_DIR')}\n"
        if backend == "sqlite":
            storage += f"  options: {{path: {self.dir}/mnemo.db}}\nmemory:\n  index_dir: {self.dir}/memory-index\n"
        config = (
            "server:\n"
            f'  listen: ["127.0.0.1:{self.port}", "unix:{self.socket_path}"]\n'
            f"  admin_socket: {self.dir}/admin.sock\n" + server + storage + sections
        )
        self.config_path = self.dir / "mnemod.yaml"
        self.config_path.write_text(config)
        self.process: Optional[subprocess.Popen] = None

    def start(self) -> "Daemon":
        binary = _required_env("MNEMOD_BIN")
        with open(self.dir / "log", "ab") as log:
            self.process = subprocess.Popen(
                [binary, "--config", str(self.config_path)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mnemod exited with {self.process.returncode} at start:\n{self.log()}")
            if self._healthy():
                return self
            time.sleep(0.05)
        raise RuntimeError(f"mnemod did not answer /healthz on port {self.port} within 30 s:\n{self.log()}")

    def _healthy(self) -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
        try:
            conn.request("GET", "/healthz")
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    def log(self) -> str:
        path = self.dir / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def signal(self, signum: int) -> None:
        assert self.process is not None
        self.process.send_signal(signum)

    def stop(self) -> str:
        """Stops the daemon and removes its folder; answers why it was not a clean exit 0, or ""."""
        problem = ""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
                    problem = "did not exit within 20 s of SIGTERM"
            if not problem and self.process.returncode != 0:
                problem = f"exited with {self.process.returncode}"
        if problem:
            problem = f"mnemod ({self.backend}) {problem}; its log:\n{self.log()}"
        shutil.rmtree(self.dir, ignore_errors=True)
        return problem


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
