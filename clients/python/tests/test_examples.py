"""The examples of clients/python/examples run against a real daemon and print what they promise."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import CLIENT_DIR

EXAMPLES = {
    "quickstart.py": [
        "conflict, current version is 2",
        "search found session True",
        "recalled: ['Prefers window seats']",
    ],
    "adk_services.py": [
        "state after the turn: {'user:name': 'Ann', 'dish': 'risotto', 'temp:step': 1}",
        "stored state: {'dish': 'risotto', 'user:name': 'Ann'}",
        'memory says: ["I\'m vegetarian, plan a dinner"]',
    ],
    "openai_agents_session.py": ["history before: []", "items left: 3", "after clear: []"],
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs(daemon, name: str) -> None:
    env = dict(os.environ, MNEMO_URL=daemon.url, PYTHONPATH=str(CLIENT_DIR))
    done = subprocess.run(
        [sys.executable, str(CLIENT_DIR / "examples" / name)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    for line in EXAMPLES[name]:
        assert line in done.stdout, done.stdout
