"""A thread written by the TypeScript MnemoCheckpointSaver reads from Python's MnemoSaver, and goes on there;
an item the TypeScript MnemoStore put reads and is found from Python's MnemoStore.

ts_thread.mjs runs a LangGraph.js graph on the TypeScript saver (node, with
clients/typescript's packages and dist/, which ctest typescript_client
installs and builds; ctest runs this suite after it). The same thread then
reads from Python (its checkpoints, values, metadata and history) and a
LangGraph for Python graph of the same shape continues it.
"""

from __future__ import annotations

import json
import operator
import shutil
import subprocess
from pathlib import Path
from typing import Annotated, Any, Callable, Dict, List, TypedDict

from langgraph.graph import END, START, StateGraph

from mnemo import Client
from mnemo.adapters.langgraph import MnemoSaver, MnemoStore

HERE = Path(__file__).resolve().parent
TYPESCRIPT = HERE.parents[2] / "typescript"
THREAD = "trip/1 é"  # not a mnemod name: both languages must escape it alike


class State(TypedDict):
    log: Annotated[List[str], operator.add]
    turns: int


def count(state: State) -> Dict[str, Any]:
    return {"log": [f"turn {state['turns'] + 1}"], "turns": state["turns"] + 1}


def write_from_typescript(url: str) -> Dict[str, Any]:
    node = shutil.which("node")
    assert node, "node is not installed; this test needs Node >= 20 with clients/typescript built"
    assert (TYPESCRIPT / "dist" / "index.js").exists(), (
        "clients/typescript/dist is missing: build it first (clients/typescript/run.sh, or ctest -R typescript_client)"
    )
    with open(HERE / "ts_thread.mjs", "rb") as script:
        done = subprocess.run(
            [node, "--input-type=module", "-", url, "lg", "ann", THREAD],
            stdin=script, cwd=TYPESCRIPT, capture_output=True, timeout=120,
        )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_a_typescript_thread_reads_and_continues_in_python(start_daemon: Callable[..., Any]) -> None:
    daemon = start_daemon("sqlite")
    assert write_from_typescript(daemon.url) == {"log": ["from typescript", "turn 1", "again", "turn 2"], "turns": 2}
    with Client(daemon.url) as client:
        saver = MnemoSaver(client=client, app="lg", user="ann")
        [session] = client.list_sessions("lg", "ann")["sessions"]
        assert session["id"] == saver.session_id(THREAD) and session["metadata"] == {"langgraph_thread_id": THREAD}

        config = {"configurable": {"thread_id": THREAD}}
        latest = saver.get_tuple(config)
        assert latest is not None
        assert latest.checkpoint["channel_values"] == {
            "log": ["from typescript", "turn 1", "again", "turn 2"], "turns": 2
        }
        assert latest.metadata["source"] == "loop" and latest.config["configurable"]["thread_id"] == THREAD
        history = list(saver.list(config))
        assert len(history) == 6 and history[0].checkpoint["id"] == latest.checkpoint["id"]
        assert [t.metadata["step"] for t in history] == [4, 3, 2, 1, 0, -1]
        first_input = history[-1]
        assert first_input.metadata["source"] == "input" and first_input.parent_config is None

        builder = StateGraph(State)
        builder.add_node("count", count)
        builder.add_edge(START, "count")
        builder.add_edge("count", END)
        graph = builder.compile(checkpointer=saver)
        result = graph.invoke({"log": ["from python"]}, config)
        assert result == {"log": ["from typescript", "turn 1", "again", "turn 2", "from python", "turn 3"], "turns": 3}
        assert len(list(saver.list(config))) == 9

        store = MnemoStore(client=client, app="lg", user="ann")
        item = store.get(("prefs", "ann é"), "lunch")
        assert item is not None and item.value == {"dish": "ramen", "spicy": True, "n": 1.5}
        memory = client.get_memory("lg", "ann", store.memory_id(("prefs", "ann é"), "lunch"))
        assert memory["namespace"] == store.memory_namespace(("prefs", "ann é"))
        store.put(("prefs", "ann é"), "lunch-py", {"dish": "ramen", "spicy": True, "n": 1.5})
        twin = client.get_memory("lg", "ann", store.memory_id(("prefs", "ann é"), "lunch-py"))
        assert memory["text"] == twin["text"] == "ramen\ntrue\n1.5"  # the same searchable text from both languages
        assert {k: v for k, v in memory["metadata"].items() if k != "lg.key"} == {
            k: v for k, v in twin["metadata"].items() if k != "lg.key"
        }
        assert sorted(h.key for h in store.search(("prefs",), query="ramen", filter={"spicy": True})) == [
            "lunch", "lunch-py"
        ]
