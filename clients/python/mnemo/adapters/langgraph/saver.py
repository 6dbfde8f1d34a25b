"""MnemoSaver: LangGraph checkpoints kept in mnemod, on the TypeScript MnemoCheckpointSaver's wire layout.

One thread is one mnemod session of the saver's (app, user), named by
:func:`name_of` of the thread id and created with the thread id in its
metadata (``langgraph_thread_id``). Each ``put`` appends one event whose
content is ``{"lg": "checkpoint", "thread", "ns", "id", "parent",
"checkpoint", "metadata", "blobs"}`` (the checkpoint without its channel
values; ``blobs`` maps each channel changed, by ``new_versions``, to
``[version, value]``), and each ``put_writes`` one event ``{"lg": "writes",
"thread", "ns", "checkpoint", "task", "path", "writes": [[idx, channel,
value], ...]}``. A value is ``{"json": ...}`` when the serializer made JSON,
else ``{"type", "b64"}`` (LangGraph for Python's serializer answers msgpack),
or ``{"empty": true}``. Reading a thread reads its events and rebuilds each
checkpoint's channel values from the newest stored value of each channel
version, as LangGraph's SQL savers do. So a thread written from TypeScript
reads from Python, and the other way round where the TypeScript side can
decode the values.
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections import OrderedDict
from typing import Any, AsyncIterator, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from langchain_core.runnables import RunnableConfig  # type: ignore[import]
from langgraph.checkpoint.base import (  # type: ignore[import]
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    copy_checkpoint,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
)
from langgraph.checkpoint.serde.base import SerializerProtocol  # type: ignore[import]

from ...client import Client
from ...errors import AlreadyExists, NotFound
from ...types import Event, EventIn
from ._client import client_for
from ._names import name_of
from ._thread import CachedThread, Stored, Thread

AUTHOR, ROLE = "langgraph", "system"
THREAD_KEY = "langgraph_thread_id"


def _missing_thread(what: str) -> ValueError:
    return ValueError(
        f'Failed to {what}: the RunnableConfig has no "thread_id" in its "configurable"; pass one, e.g. '
        'graph.invoke(input, {"configurable": {"thread_id": "t1"}})'
    )


class MnemoSaver(BaseCheckpointSaver[int]):  # type: ignore[misc]
    """A LangGraph checkpointer (sync and async) whose threads are mnemod sessions of one (app, user).

    ``url`` and ``token`` build a client (``MNEMO_URL`` and ``MNEMO_TOKEN`` by
    default), or ``client`` is shared. ``ttl_seconds``: each thread's session
    TTL, refreshed by every write (None: the app's session TTL; 0: never).
    ``snapshot_every``: every this many puts to a thread (per saver, from its
    first put), store every channel's value, not only the changed ones, so
    that an app ``event_limit`` that evicts old events never takes a value a
    checkpoint still reads. ``cache_threads``: how many threads the saver
    keeps read in memory, so that reading one again fetches only the events
    appended since (0: none). ``delete_for_runs``, ``copy_thread`` and
    ``prune`` rewrite a thread's session in one request (at most
    ``limits.max_batch_events`` events).
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        app: str,
        user: str,
        token: Optional[str] = None,
        client: Optional[Client] = None,
        ttl_seconds: Optional[int] = None,
        snapshot_every: Optional[int] = None,
        cache_threads: int = 100,
        serde: Optional[SerializerProtocol] = None,
    ) -> None:
        super().__init__(serde=serde)
        if snapshot_every is not None and snapshot_every < 1:
            raise ValueError(f"MnemoSaver: snapshot_every must be an integer >= 1, not {snapshot_every}")
        self.client = client_for("MnemoSaver", app=app, user=user, url=url, token=token, client=client)
        self.app, self.user = app, user
        self.ttl_seconds = ttl_seconds
        self.snapshot_every = snapshot_every
        self._since_snapshot: Dict[Tuple[str, str], int] = {}
        self.cache_threads = cache_threads
        self._cache: "OrderedDict[str, CachedThread]" = OrderedDict()  # by session id, least recently read first
        self._cache_lock = threading.Lock()  # the async calls run in worker threads

    def session_id(self, thread_id: str) -> str:
        """The mnemod session id that holds a thread."""
        return name_of(thread_id)

    # ---- values

    def _encode(self, value: Any) -> Stored:
        kind, data = self.serde.dumps_typed(value)
        if kind == "json":
            return {"json": json.loads(data)}
        return {"type": kind, "b64": base64.b64encode(data).decode("ascii")}

    def _decode(self, stored: Stored) -> Any:
        if "json" in stored:
            return self.serde.loads_typed(("json", json.dumps(stored["json"]).encode("utf-8")))
        if "b64" in stored:
            return self.serde.loads_typed((stored["type"], base64.b64decode(stored["b64"])))
        return None

    # ---- reading

    def _events_after(self, session: str, after_seq: int) -> Optional[List[Event]]:
        try:
            return list(self.client.iter_events(self.app, self.user, session, after_seq=after_seq, page_size=1000))
        except NotFound:
            return None

    def _forget(self, session: str) -> None:
        with self._cache_lock:
            self._cache.pop(session, None)

    def _read_session(self, session: str) -> Optional[Thread]:
        """A thread: the cached one and the events appended since, or read whole when the session is not the one
        cached (deleted and created again, rewritten, or events evicted: its event count then disagrees)."""
        try:
            now = self.client.get_session(self.app, self.user, session, num_recent_events=1)["session"]
        except NotFound:
            self._forget(session)
            return None
        with self._cache_lock:
            cached = self._cache.get(session)
        thread: Optional[Thread] = None
        if cached is not None and cached.created_at == now["created_at"]:
            fresh = self._events_after(session, cached.last_seq)
            if fresh is not None and cached.count + len(fresh) == now["event_count"]:
                thread, base, events = cached.thread.copy(), cached, fresh
        if thread is None:
            read = self._events_after(session, 0)
            if read is None:
                self._forget(session)
                return None
            thread, base, events = Thread(), CachedThread(Thread(), now["created_at"], 0, 0), read
        for event in events:
            thread.absorb(event.get("content"))
        if self.cache_threads > 0:
            last_seq = events[-1]["seq"] if events else base.last_seq
            with self._cache_lock:
                self._cache.pop(session, None)
                self._cache[session] = CachedThread(thread, base.created_at, last_seq, base.count + len(events))
                while len(self._cache) > self.cache_threads:
                    self._cache.popitem(last=False)
        return thread

    def _threads(self, thread_id: Optional[str]) -> List[Thread]:
        if thread_id is not None:
            thread = self._read_session(self.session_id(thread_id))
            return [thread] if thread else []
        threads = []
        for session in list(self.client.iter_sessions(self.app, self.user, page_size=1000)):
            if THREAD_KEY not in (session.get("metadata") or {}):
                continue  # a session of another client, not a thread
            thread = self._read_session(session["id"])
            if thread:
                threads.append(thread)
        return threads

    def _tuple_of(self, thread: Thread, content: Dict[str, Any]) -> CheckpointTuple:
        checkpoint = self._decode(content["checkpoint"])
        values = {}
        for channel, version in (checkpoint.get("channel_versions") or {}).items():
            stored = thread.blobs.get((content["ns"], channel, str(version)))
            if stored and "empty" not in stored:
                values[channel] = self._decode(stored)
        checkpoint["channel_values"] = values
        ns, thread_id = content["ns"], content["thread"]
        parent = content.get("parent")
        return CheckpointTuple(
            config={"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": content["id"]}},
            checkpoint=checkpoint,
            metadata=self._decode(content["metadata"]),
            parent_config=(
                {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": parent}}
                if parent
                else None
            ),
            pending_writes=[
                (w["task"], w["channel"], self._decode(w["value"])) for w in thread.ordered_writes(ns, content["id"])
            ],
        )

    def get_tuple(self, config: RunnableConfig) -> Optional[CheckpointTuple]:
        configurable = config.get("configurable") or {}
        if configurable.get("thread_id") is None:
            return None
        threads = self._threads(str(configurable["thread_id"]))
        checkpoints = threads[0].checkpoints.get(configurable.get("checkpoint_ns", "")) if threads else None
        if not checkpoints:
            return None
        wanted = get_checkpoint_id(config) or max(checkpoints)
        content = checkpoints.get(wanted)
        return self._tuple_of(threads[0], content) if content else None

    def list(
        self,
        config: Optional[RunnableConfig],
        *,
        filter: Optional[Dict[str, Any]] = None,
        before: Optional[RunnableConfig] = None,
        limit: Optional[int] = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first (their ids are time-ordered UUIDv6), of one thread or of all the user's."""
        configurable = (config or {}).get("configurable") or {}
        thread_id = configurable.get("thread_id")
        ns = configurable.get("checkpoint_ns")
        only = configurable.get("checkpoint_id")
        before_id = get_checkpoint_id(before) if before else None
        candidates = []
        for thread in self._threads(None if thread_id is None else str(thread_id)):
            for checkpoint_ns, checkpoints in thread.checkpoints.items():
                if ns is not None and checkpoint_ns != ns:
                    continue
                for content in checkpoints.values():
                    if (only and content["id"] != only) or (before_id and content["id"] >= before_id):
                        continue
                    candidates.append((thread, content))
        candidates.sort(key=lambda pair: str(pair[1]["id"]), reverse=True)
        for thread, content in candidates:
            if limit is not None and limit <= 0:
                return
            tuple_ = self._tuple_of(thread, content)
            if filter and not all(tuple_.metadata.get(k) == v for k, v in filter.items()):
                continue
            if limit is not None:
                limit -= 1
            yield tuple_

    # ---- writing

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        configurable = config.get("configurable") or {}
        if configurable.get("thread_id") is None:
            raise _missing_thread("put checkpoint")
        thread, ns = str(configurable["thread_id"]), configurable.get("checkpoint_ns", "")
        stripped: Dict[str, Any] = dict(copy_checkpoint(checkpoint))
        values = stripped.pop("channel_values", None) or {}
        changed = dict(new_versions)
        if self.snapshot_every is not None:
            count = self._since_snapshot.get((thread, ns))
            if count is None or count + 1 >= self.snapshot_every:
                # Only channels that have a value: an "empty" mark would hide the value stored for that version.
                held = {c: v for c, v in (stripped.get("channel_versions") or {}).items() if c in values}
                changed = {**held, **changed}
                self._since_snapshot[(thread, ns)] = 0
            else:
                self._since_snapshot[(thread, ns)] = count + 1
        blobs = {
            channel: [version, self._encode(values[channel]) if channel in values else {"empty": True}]
            for channel, version in changed.items()
        }
        content = {
            "lg": "checkpoint",
            "thread": thread,
            "ns": ns,
            "id": checkpoint["id"],
            "parent": configurable.get("checkpoint_id"),
            "checkpoint": self._encode(stripped),
            "metadata": self._encode(get_serializable_checkpoint_metadata(config, metadata)),
            "blobs": blobs,
        }
        self._append(thread, [content])
        return {"configurable": {"thread_id": thread, "checkpoint_ns": ns, "checkpoint_id": checkpoint["id"]}}

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[Tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        configurable = config.get("configurable") or {}
        if configurable.get("thread_id") is None:
            raise _missing_thread("put writes")
        if not configurable.get("checkpoint_id"):
            raise ValueError(
                'Failed to put writes: the RunnableConfig has no "checkpoint_id" in its "configurable" '
                "(the config put() answered has one)"
            )
        content = {
            "lg": "writes",
            "thread": str(configurable["thread_id"]),
            "ns": configurable.get("checkpoint_ns", ""),
            "checkpoint": str(configurable["checkpoint_id"]),
            "task": task_id,
            "path": task_path,
            "writes": [[WRITES_IDX_MAP.get(channel, idx), channel, self._encode(value)]
                       for idx, (channel, value) in enumerate(writes)],
        }
        self._append(content["thread"], [content])

    def _append(self, thread_id: str, contents: List[Dict[str, Any]]) -> None:
        """Appends to the thread's session; the first write creates it (its TTL, the thread id in its metadata)."""
        session = self.session_id(thread_id)
        events: List[EventIn] = [{"author": AUTHOR, "role": ROLE, "content": c} for c in contents]
        try:
            self.client.append_events(self.app, self.user, session, events)
            return
        except NotFound:
            pass
        try:
            self.client.create_session(
                self.app, self.user, id=session, metadata={THREAD_KEY: thread_id}, ttl_seconds=self.ttl_seconds
            )
        except AlreadyExists:
            pass  # another writer created it meanwhile
        self.client.append_events(self.app, self.user, session, events)

    # ---- removing and copying

    def delete_thread(self, thread_id: str) -> None:
        self._forget(self.session_id(thread_id))
        try:
            self.client.delete_session(self.app, self.user, self.session_id(thread_id), hard=True)
        except NotFound:
            pass

    def _kept_contents(
        self, thread: Thread, keep: Callable[[str, Dict[str, Any]], bool], as_thread: Optional[str] = None
    ) -> List[Dict[str, Any]]:
        """The events of a thread holding only the kept checkpoints and their writes, oldest first.

        The values a kept checkpoint reads from a dropped one move into the
        oldest kept checkpoint that reads them, so every kept one reads back whole.
        """
        contents = []
        for ns, checkpoints in thread.checkpoints.items():
            emitted = set()
            for checkpoint_id in sorted(checkpoints):
                content = checkpoints[checkpoint_id]
                if not keep(ns, content):
                    continue
                versions = self._decode(content["checkpoint"]).get("channel_versions") or {}
                blobs = {}
                for channel, version in versions.items():
                    key = (ns, channel, str(version))
                    if key in thread.blobs and key not in emitted:
                        blobs[channel] = [version, thread.blobs[key]]
                    emitted.add(key)
                thread_id = as_thread or content["thread"]
                contents.append(dict(content, thread=thread_id, blobs=blobs))
                for w in thread.ordered_writes(ns, checkpoint_id):
                    contents.append({"lg": "writes", "thread": thread_id, "ns": ns, "checkpoint": checkpoint_id,
                                     "task": w["task"], "path": w["path"],
                                     "writes": [[w["idx"], w["channel"], w["value"]]]})
        return contents

    def _rewrite(self, thread_id: str, keep: Callable[[str, Dict[str, Any]], bool]) -> None:
        session = self.session_id(thread_id)
        try:
            version = self.client.get_session(self.app, self.user, session, num_recent_events=1)["session"]["version"]
        except NotFound:
            return
        thread = self._read_session(session)
        if thread is None:
            return
        contents = self._kept_contents(thread, keep)
        kept = sum(1 for c in contents if c["lg"] == "checkpoint")
        total = sum(len(c) for c in thread.checkpoints.values())
        if kept == total:
            return
        if not contents:
            self.delete_thread(thread_id)
            return
        events: List[EventIn] = [{"author": AUTHOR, "role": ROLE, "content": c} for c in contents]
        self._forget(session)
        self.client.rewrite_events(self.app, self.user, session, events, expected_version=version)

    def _thread_ids(self) -> List[str]:
        return [
            str(s["metadata"][THREAD_KEY])
            for s in list(self.client.iter_sessions(self.app, self.user, page_size=1000))
            if THREAD_KEY in (s.get("metadata") or {})
        ]

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Drops the checkpoints whose metadata ``run_id`` is one of ``run_ids`` (and their writes), in every thread."""
        runs = set(run_ids)
        if not runs:
            return
        for thread_id in self._thread_ids():
            self._rewrite(thread_id, lambda ns, c: self._decode(c["metadata"]).get("run_id") not in runs)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copies every checkpoint and write of one thread into another (a missing source copies nothing)."""
        source = self._read_session(self.session_id(source_thread_id))
        if source is None:
            return
        contents = self._kept_contents(source, lambda ns, c: True, as_thread=target_thread_id)
        batch = 256  # mnemod's default limits.max_batch_events
        for start in range(0, len(contents), batch):
            self._append(target_thread_id, contents[start : start + batch])

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """``keep_latest``: only each namespace's newest checkpoint stays (values it reads kept); ``delete``: all go."""
        if strategy not in ("keep_latest", "delete"):
            raise ValueError(f"prune: unknown strategy {strategy!r}; use 'keep_latest' or 'delete'")
        for thread_id in thread_ids:
            if strategy == "delete":
                self.delete_thread(thread_id)
                continue
            thread = self._read_session(self.session_id(thread_id))
            if thread is None:
                continue
            latest = {ns: max(checkpoints) for ns, checkpoints in thread.checkpoints.items() if checkpoints}
            self._rewrite(thread_id, lambda ns, c: bool(c["id"] == latest.get(ns)))

    # ---- async: the same calls in a worker thread

    async def aget_tuple(self, config: RunnableConfig) -> Optional[CheckpointTuple]:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self,
        config: Optional[RunnableConfig],
        *,
        filter: Optional[Dict[str, Any]] = None,
        before: Optional[RunnableConfig] = None,
        limit: Optional[int] = None,
    ) -> AsyncIterator[CheckpointTuple]:
        found = await asyncio.to_thread(lambda: list(self.list(config, filter=filter, before=before, limit=limit)))
        for tuple_ in found:
            yield tuple_

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: RunnableConfig, writes: Sequence[Tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_for_runs, run_ids)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await asyncio.to_thread(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await asyncio.to_thread(self.prune, thread_ids, strategy=strategy)
