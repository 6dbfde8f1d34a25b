"""A compiled LangGraph graph on MnemoSaver resumes its thread after its process ends.

Each turn runs in a process of its own (graph_turn.py): the second sees the
first turn's messages, the third stops at an interrupt, and a fourth process
resumes it with a Command; only mnemod carries the thread between them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict

TURN = Path(__file__).with_name("graph_turn.py")


def test_a_thread_survives_the_process(start_daemon: Callable[..., Any]) -> None:
    # sqlite only: each process pays LangGraph's import (seconds), and the other suites cover both storages.
    daemon = start_daemon("sqlite")

    def turn(verb: str, text: str) -> Dict[str, Any]:
        done = subprocess.run(
            [sys.executable, str(TURN), daemon.url, "ann", "trip-1", verb, text],
            capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first = turn("say", "hi")
    assert first["sent"] == [["hi"]] and first["next"] == []
    second = turn("say", "somewhere warm")
    assert second["sent"] == [["hi", "Hello! What should I book?", "somewhere warm"]]
    third = turn("say", "book the hotel")
    assert third["sent"][0][-1] == "book the hotel" and len(third["sent"][0]) == 5
    assert third["next"] == ["confirm"] and third["interrupts"] == [{"question": "book it?"}]
    resumed = turn("resume", "yes")
    assert resumed["sent"] == []  # the model node is not run again: the checkpoint after it is resumed
    assert resumed["next"] == []
    assert resumed["messages"][-2:] == ["Booked.", "confirmed: yes"]
