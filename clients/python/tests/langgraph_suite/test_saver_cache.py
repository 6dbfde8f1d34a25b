"""MnemoSaver's cache of threads read: a read fetches only new events, yet sees every other writer's change."""

from __future__ import annotations

from typing import Any, Dict

from langgraph.checkpoint.base import empty_checkpoint

from mnemo import Client
from mnemo.adapters.langgraph import MnemoSaver


def put_step(saver: MnemoSaver, thread: str, step: int, parent: Any = None) -> Dict[str, Any]:
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"step": step}
    checkpoint["channel_versions"] = {"step": step}
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": "", "checkpoint_id": parent}}
    return saver.put(config, checkpoint, {"step": step}, {"step": step})


def latest_step(saver: MnemoSaver, thread: str) -> Any:
    found = saver.get_tuple({"configurable": {"thread_id": thread}})
    return None if found is None else found.checkpoint["channel_values"]["step"]


def test_a_cached_thread_follows_other_writers(client: Client) -> None:
    reader = MnemoSaver(client=client, app="lg", user="ann")
    writer = MnemoSaver(client=client, app="lg", user="ann", cache_threads=0)
    first = put_step(writer, "t", 1)
    assert latest_step(reader, "t") == 1 and "t" in reader._cache
    put_step(writer, "t", 2, first["configurable"]["checkpoint_id"])
    assert latest_step(reader, "t") == 2  # appended since: fetched and absorbed
    assert [t.metadata["step"] for t in reader.list({"configurable": {"thread_id": "t"}})] == [2, 1]
    writer.prune(["t"])  # a rewrite: the cached events are gone
    assert [t.metadata["step"] for t in reader.list({"configurable": {"thread_id": "t"}})] == [2]
    writer.delete_thread("t")
    assert latest_step(reader, "t") is None
    put_step(writer, "t", 7)  # the same thread created again
    assert latest_step(reader, "t") == 7


def test_the_cache_keeps_the_latest_threads(client: Client) -> None:
    saver = MnemoSaver(client=client, app="lg", user="ann", cache_threads=2)
    for name in ("a", "b", "c"):
        put_step(saver, name, 1)
        assert latest_step(saver, name) == 1
    assert list(saver._cache) == [saver.session_id("b"), saver.session_id("c")]
    uncached = MnemoSaver(client=client, app="lg", user="ann", cache_threads=0)
    assert latest_step(uncached, "a") == 1 and not uncached._cache
