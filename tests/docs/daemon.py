"""A real mnemod for the docs tests: sqlite storage in a scratch folder, a free
TCP port on 127.0.0.1, the admin socket in that folder, and optionally the fake
OpenAI-compatible embedder (tests/fixtures/fake_embedder.py) beside it.

The daemon comes from MNEMOD_BIN and its plugins from MNEMO_PLUGIN_DIR (ctest
sets both to the build tree's). Standard library only.
"""

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

SOURCE_DIR = Path(__file__).resolve().parents[2]
FAKE_EMBEDDER = SOURCE_DIR / "tests" / "fixtures" / "fake_embedder.py"


def required_env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"{name} is not set: run this through ctest, or set MNEMOD_BIN=build/daemon/mnemod "
                 "and MNEMO_PLUGIN_DIR=build/plugins")
    return value


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Daemon:
    """mnemod with `sections` (YAML text) added to its config; `embedder_dimensions`
    > 0 starts the fake embedder and points memory.embedder at it."""

    def __init__(self, sections="", embedder_dimensions=0):
        self.dir = Path(tempfile.mkdtemp(prefix="mnemo-docs-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.embedder = None
        memory = f"memory:\n  index_dir: {self.dir}/memory-index\n"
        if embedder_dimensions:
            self.embedder = subprocess.Popen(
                ["/usr/bin/python3", str(FAKE_EMBEDDER), "--dimensions", str(embedder_dimensions)],
                stdout=subprocess.PIPE, text=True)
            embedder_port = int(self.embedder.stdout.readline())
            memory += (f"  embedder: {{kind: http, url: 'http://127.0.0.1:{embedder_port}/v1', "
                       "model: fake-embed}\n")
        self.config_path = self.dir / "mnemod.yaml"
        self.config_path.write_text(
            "server:\n"
            f"  listen: ['127.0.0.1:{self.port}']\n"
            f"  admin_socket: {self.dir}/admin.sock\n"
            "storage:\n  plugin: sqlite\n"
            f"  plugin_dir: {required_env('MNEMO_PLUGIN_DIR')}\n"
            f"  options: {{path: {self.dir}/mnemo.db}}\n" + memory + sections)
        self.process = None

    def start(self):
        with open(self.dir / "log", "ab") as log:
            self.process = subprocess.Popen([required_env("MNEMOD_BIN"), "--config", str(self.config_path)],
                                            cwd=self.dir, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mnemod exited with {self.process.returncode} at start:\n{self.log()}")
            if self._healthy():
                return self
            time.sleep(0.05)
        raise RuntimeError(f"mnemod did not answer /healthz within 30 s:\n{self.log()}")

    def _healthy(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
        try:
            conn.request("GET", "/healthz")
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    def log(self):
        path = self.dir / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self):
        """Stops both processes and removes the folder; answers why mnemod's stop was not clean, or ""."""
        problem = ""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                problem = "did not exit within 20 s of SIGTERM"
        if not problem and self.process is not None and self.process.returncode != 0:
            problem = f"exited with {self.process.returncode}"
        if problem:
            problem = f"mnemod {problem}; its log:\n{self.log()}"
        if self.embedder is not None:
            self.embedder.terminate()
            self.embedder.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
        return problem
