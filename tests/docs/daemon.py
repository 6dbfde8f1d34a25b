"""A real mnemod for the docs tests: tests/fixtures/mnemod_daemon.py's, on
sqlite, optionally with the fake OpenAI-compatible embedder
(tests/fixtures/fake_embedder.py) as its memory.embedder."""

import subprocess
import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
FIXTURES = SOURCE_DIR / "tests" / "fixtures"
sys.path.insert(0, str(FIXTURES))

from mnemod_daemon import Daemon as _Daemon  # noqa: E402
from mnemod_daemon import required_env  # noqa: E402 (also for the scripts)


class Daemon(_Daemon):
    """mnemod on sqlite with `sections` (YAML text) added to its config;
    `embedder_dimensions` > 0 starts the fake embedder beside it."""

    def __init__(self, sections="", embedder_dimensions=0):
        self.embedder = None
        memory = ""
        required_env("MNEMO_PLUGIN_DIR")  # fails before a fake embedder is left behind
        if embedder_dimensions:
            self.embedder = subprocess.Popen(
                ["/usr/bin/python3", str(FIXTURES / "fake_embedder.py"), "--dimensions", str(embedder_dimensions)],
                stdout=subprocess.PIPE, text=True)
            port = int(self.embedder.stdout.readline())
            memory = f"  embedder: {{kind: http, url: 'http://127.0.0.1:{port}/v1', model: fake-embed}}\n"
        super().__init__("sqlite", sections=sections, memory=memory)

    def stop(self):
        """Stops both processes; answers why mnemod's stop was not clean, or ""."""
        problem = super().stop()
        if self.embedder is not None:
            self.embedder.terminate()
            self.embedder.wait()
        return problem
