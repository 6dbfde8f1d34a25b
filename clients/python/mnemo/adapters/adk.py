"""Google ADK services backed by mnemod: ``MnemoSessionService`` and ``MnemoMemoryService``.

Written for google-adk 2.13 (``BaseSessionService`` with ``get_user_state``
and ADK's error classes, ``BaseMemoryService`` with its optional methods) and
proven on it by tests/adk_contract, which mirror ADK's own session contract
tests.
ADK's interfaces are async; each call runs the synchronous client in a worker
thread (``asyncio.to_thread``).

An ADK event is stored as one mnemod event: its id, author, invocation id and
timestamp as themselves, ``actions.state_delta`` as the event's
``state_delta`` (so ``app:``, ``user:`` and ``temp:`` keys get mnemod's scope
rules, the same as ADK's; a ``None`` value is stored as null, as ADK 2.x
stores it), and the whole event in ``content.adk`` with its
text in ``content.text`` (so transcript search and memory capture see it).
An event id that is not a valid mnemod name is stored under a name derived
from it (ADK still sees its own id). Events written by other clients are
read back as text events.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import re
from collections import OrderedDict
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ..client import Client
from ..errors import AlreadyExists, Conflict, NotFound
from ..types import EventIn, MemoryIn, Usage
from ._adk_models import (
    AlreadyExistsError,
    BaseMemoryService,
    BaseSessionService,
    Event,
    GetSessionConfig,
    ListSessionsResponse,
    MemoryEntry,
    SearchMemoryResponse,
    Session,
    SessionNotFoundError,
    StaleSessionError,
)

_NAME = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")
TEMP_PREFIX = "temp:"


def _name(value: str, prefix: str) -> str:
    """``value`` when it is a valid mnemod name, else a stable name derived from it."""
    if _NAME.match(value) and value not in (".", ".."):
        return value
    return prefix + hashlib.sha256(value.encode("utf-8")).hexdigest()[:40]


def _seconds(rfc3339: str) -> float:
    return _dt.datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp()


def _iso(seconds: float) -> str:
    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).isoformat()


def content_text(content: Any) -> str:
    """The text parts of an ADK content (as JSON), joined by newlines."""
    if not isinstance(content, dict):
        return ""
    parts = content.get("parts") or []
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str) and p["text"])


def _role(dump: Dict[str, Any]) -> str:
    if dump.get("author") == "user":
        return "user"
    parts = (dump.get("content") or {}).get("parts") or []
    if any(isinstance(p, dict) and p.get("function_response") for p in parts):
        return "tool"
    return "assistant"


def _usage(dump: Dict[str, Any]) -> Optional[Usage]:
    meta = dump.get("usage_metadata")
    if not isinstance(meta, dict):
        return None
    names = {
        "prompt_token_count": "input_tokens",
        "candidates_token_count": "output_tokens",
        "cached_content_token_count": "cache_read_tokens",
        "total_token_count": "total_tokens",
    }
    usage = {ours: meta[theirs] for theirs, ours in names.items() if isinstance(meta.get(theirs), int)}
    return cast(Usage, usage) if usage else None


def to_mnemo_event(event: Event) -> EventIn:
    """The mnemod event that stores one ADK event."""
    # The delta is taken apart from the dump: exclude_none would drop the None values ADK 2.x stores
    # as null, and a value JSON cannot hold would fail the whole dump.
    dump = event.model_dump(mode="json", exclude_none=True, exclude={"actions": {"state_delta"}})
    actions = dict(dump.get("actions") or {})
    delta = _json_state(event.actions.state_delta) if event.actions else {}
    stored = dict(dump, actions=actions)
    content: Dict[str, Any] = {}
    text = content_text(dump.get("content"))
    if text:
        content["text"] = text
    content["adk"] = stored
    out: EventIn = {
        "id": _name(dump["id"], "adk-"),
        "author": dump["author"],
        "role": _role(dump),
        "content": content,
        "timestamp": dump["timestamp"],
    }
    if dump.get("invocation_id"):
        out["invocation_id"] = dump["invocation_id"]
    if delta:
        out["state_delta"] = delta
    usage = _usage(dump)
    if usage:
        out["usage"] = usage
    return out


def _json_state(state: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """A state delta as JSON values, its None values kept."""
    if not state:
        return {}
    return {key: _to_json(value) for key, value in state.items()}


def _to_json(value: Any) -> Any:
    """A state value as JSON; one JSON cannot hold (a function, say) as its text, as ADK's SQL services keep it."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_to_json(v) for v in value]
    return str(value)


def from_mnemo_event(stored: Mapping[str, Any]) -> Event:
    """The ADK event a stored mnemod event holds (a text event when another client wrote it)."""
    content = stored.get("content")
    delta = stored.get("state_delta") or {}
    if isinstance(content, dict) and isinstance(content.get("adk"), dict):
        dump = dict(content["adk"])
        dump["actions"] = dict(dump.get("actions") or {}, state_delta=delta)
        return Event.model_validate(dump)
    text = content.get("text") if isinstance(content, dict) else content
    dump = {
        "id": stored["id"],
        "author": stored.get("author", "user"),
        "invocation_id": stored.get("invocation_id", ""),
        "timestamp": _seconds(stored["timestamp"]),
        "actions": {"state_delta": delta},
    }
    if isinstance(text, str) and text:
        role = "user" if stored.get("role") == "user" else "model"
        dump["content"] = {"role": role, "parts": [{"text": text}]}
    return Event.model_validate(dump)


def _without_temp(state: Dict[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in state.items() if not key.startswith(TEMP_PREFIX)}


class _SeenVersions:
    """The mnemod version each session object this service handed out reflects, by its last_update_time.

    An append is conditional on that version, so a write by anyone in between
    makes the object stale, as ADK's database service refuses a session whose
    ``last_update_time`` is older than the stored one. An object this service
    never handed out appends unconditionally. Bounded: the least recently
    used sessions, and all but the latest few objects of each, are forgotten.
    """

    def __init__(self, sessions: int = 10000, per_session: int = 16) -> None:
        self._sessions = sessions
        self._per_session = per_session
        self._seen: "OrderedDict[Tuple[str, str, str], Dict[float, int]]" = OrderedDict()

    def remember(self, session: Session, version: int) -> None:
        key = (session.app_name, session.user_id, session.id)
        versions = self._seen.setdefault(key, {})
        versions[session.last_update_time] = version
        while len(versions) > self._per_session:
            del versions[next(iter(versions))]
        self._seen.move_to_end(key)
        while len(self._seen) > self._sessions:
            self._seen.popitem(last=False)

    def expected_version(self, session: Session) -> Optional[int]:
        versions = self._seen.get((session.app_name, session.user_id, session.id), {})
        return versions.get(session.last_update_time)

    def forget(self, app_name: str, user_id: str, session_id: str) -> None:
        self._seen.pop((app_name, user_id, session_id), None)


def _stale(session: Session) -> StaleSessionError:
    return StaleSessionError(
        f"session {session.user_id}/{session.id} of app {session.app_name} was modified in storage since this "
        "session object was read; it is stale: read it again with get_session and append to that"
    )


def _session_id(session_id: Optional[str]) -> Optional[str]:
    """ADK's id normalization: surrounding white space dropped, a blank id is no id."""
    stripped = session_id.strip() if session_id else ""
    return stripped or None


def _last_update_time(view: Mapping[str, Any]) -> float:
    """The latest event's timestamp (ADK's own when an ADK event), else the session's update time.

    ADK's services stamp a session with the timestamp of the event appended
    last; mnemod's ``updated_at`` is the time of the write instead.
    """
    stored = view["session"] if "session" in view else view
    events = view.get("events") or []
    if not events:
        return _seconds(stored["updated_at"])
    return float(from_mnemo_event(events[-1]).timestamp)


class MnemoSessionService(BaseSessionService):  # type: ignore[misc]
    """ADK sessions, events and app/user/session state kept in mnemod.

    Held to ADK 2.13's session contract (clients/python/tests/adk_contract):
    ADK's own error classes, ``None``-valued state stored as null (mnemod's
    ``"state_nulls": "store"``), ``last_update_time`` the latest event's
    timestamp, sessions listed oldest first with their merged state, padded
    ids stripped on every call. ``hard_delete`` purges a deleted session at
    once instead of leaving it to mnemod's soft-delete sweep.
    """

    def __init__(self, client: Client, *, hard_delete: bool = False) -> None:
        super().__init__()
        self.client = client
        self.hard_delete = hard_delete
        self._versions = _SeenVersions()

    def _session(self, app_name: str, user_id: str, view: Mapping[str, Any], events: List[Event]) -> Session:
        stored = view["session"] if "session" in view else view
        session = Session(
            id=stored["id"],
            app_name=app_name,
            user_id=user_id,
            state=_without_temp(stored.get("state") or {}),
            events=events,
            last_update_time=_last_update_time(view),
        )
        self._versions.remember(session, stored["version"])
        return session

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: Optional[Dict[str, Any]] = None,
        session_id: Optional[str] = None,
    ) -> Session:
        """Creates the session; ``app:`` and ``user:`` keys of ``state`` go to those scopes, ``temp:`` keys nowhere.

        An id already in use raises ADK's ``AlreadyExistsError``.
        """
        try:
            created = await asyncio.to_thread(
                self.client.create_session,
                app_name,
                user_id,
                id=_session_id(session_id),
                state=state or None,
                store_nulls=True,
            )
        except AlreadyExists as exists:
            raise AlreadyExistsError(
                f"session {_session_id(session_id)} of user {user_id} in app {app_name} already exists; "
                "get it with get_session or create one with another id"
            ) from exists
        return self._session(app_name, user_id, created, [])

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: Optional[GetSessionConfig] = None,
    ) -> Optional[Session]:
        """The session with its events, or None when it does not exist.

        ``config.num_recent_events`` keeps the newest N events (0: none);
        ``config.after_timestamp`` keeps events at or after that time (as
        ADK's database service does).
        """
        recent = config.num_recent_events if config else None
        after = config.after_timestamp if config and config.after_timestamp else None

        def read() -> Tuple[Dict[str, Any], List[Mapping[str, Any]]]:
            sid = _session_id(session_id) or session_id
            if recent == 0 or after is not None:
                # The events asked for may leave out the latest one, whose timestamp is last_update_time.
                latest: Dict[str, Any] = dict(self.client.get_session(app_name, user_id, sid, num_recent_events=1))
                if recent == 0:
                    return latest, []
            view: Dict[str, Any] = dict(
                self.client.get_session(
                    app_name,
                    user_id,
                    sid,
                    num_recent_events=recent,
                    # mnemod's `after` is strict and in microseconds: one below keeps an event at the instant itself.
                    after=None if after is None else f"{after - 1e-6:.6f}",
                )
            )
            stored = list(view["events"])
            if after is not None:
                view["events"] = latest["events"]
            return view, stored

        try:
            view, stored = await asyncio.to_thread(read)
        except NotFound:
            return None
        events = [from_mnemo_event(item) for item in stored]
        if after is not None:
            events = [event for event in events if event.timestamp >= after]
        return self._session(app_name, user_id, view, events)

    async def list_sessions(self, *, app_name: str, user_id: Optional[str] = None) -> ListSessionsResponse:
        """Every session with its merged state but no events; of the whole app when ``user_id`` is None.

        Oldest ``last_update_time`` first, as ADK 2.x documents; ties by user
        id, then session id, as ADK 2.13's own services break them.
        Each listed session costs one read for its state and latest event.
        """

        def collect() -> List[Session]:
            sessions = []
            for item in list(self.client.iter_sessions(app_name, user_id, page_size=1000)):
                try:
                    view = self.client.get_session(app_name, item["user"], item["id"], num_recent_events=1)
                except NotFound:
                    continue  # deleted or expired since it was listed
                sessions.append(self._session(app_name, item["user"], view, []))
            return sorted(sessions, key=lambda s: (s.last_update_time, s.user_id, s.id))

        return ListSessionsResponse(sessions=await asyncio.to_thread(collect))

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        """Deletes the session; deleting an absent one does nothing."""
        sid = _session_id(session_id) or session_id
        self._versions.forget(app_name, user_id, sid)
        try:
            await asyncio.to_thread(self.client.delete_session, app_name, user_id, sid, hard=self.hard_delete)
        except NotFound:
            pass

    async def get_user_state(self, *, app_name: str, user_id: str) -> Dict[str, Any]:
        """The user's own state (keys without their ``user:`` prefix); empty when none was written."""
        return dict(await asyncio.to_thread(self.client.get_user_state, app_name, user_id))

    async def append_event(self, session: Session, event: Event) -> Event:
        """Stores the event (a partial one is not stored), then updates ``session`` as ADK's base does.

        The event and its state delta are one atomic write; the event's id is
        its client id, so a retry after a lost answer stores it once. A
        session that no longer exists raises ADK's ``SessionNotFoundError``;
        a session object written through another one since this service
        handed it out raises ``StaleSessionError``, as ADK's database service
        does.
        """
        if event.partial:
            return event
        expected = self._versions.expected_version(session)
        try:
            result = await asyncio.to_thread(
                self.client.append_event,
                session.app_name,
                session.user_id,
                session.id,
                to_mnemo_event(event),
                expected_version=expected,
                store_nulls=True,
            )
        except NotFound as missing:
            raise SessionNotFoundError(
                f"session {session.id} of user {session.user_id} in app {session.app_name} does not exist "
                "(deleted or expired); create it again before appending"
            ) from missing
        except Conflict as conflict:
            if conflict.current_version is None:
                raise  # the event id was used before for another event
            raise _stale(session) from conflict
        await super().append_event(session, event)
        session.last_update_time = event.timestamp
        self._versions.remember(session, result["version"])
        return event


def _memory_id(session_id: Optional[str], event_id: str) -> str:
    return _name(f"{session_id}.{event_id}" if session_id else event_id, "adk-")


class MnemoMemoryService(BaseMemoryService):  # type: ignore[misc]
    """ADK memory over mnemod memories: each text event of a session becomes one memory.

    Memories are written in ``namespace`` (``adk`` by default) with ids made of
    the session and event ids, so adding a session (or events) again only
    adds what is new. ``search_memory`` recalls the user's memories in
    ``search_namespace`` (None: every namespace, so memories from other
    sources are found too), hybrid when the daemon has an embedder, else by
    words; each entry's ``id`` is the mnemod memory id and its
    ``custom_metadata`` the memory's metadata. The optional methods of ADK
    2.13 (``add_events_to_memory``, ``add_memory``, ``delete_memory``,
    ``delete_memories``) are implemented too.
    """

    def __init__(
        self,
        client: Client,
        *,
        namespace: str = "adk",
        search_namespace: Optional[str] = None,
        limit: int = 10,
        batch: int = 256,
    ) -> None:
        super().__init__()
        self.client = client
        self.namespace = namespace
        self.search_namespace = search_namespace
        self.limit = limit
        self.batch = batch

    def _memory_of(
        self, session_id: Optional[str], event: Event, extra: Optional[Mapping[str, object]]
    ) -> Optional[MemoryIn]:
        dump = event.model_dump(mode="json", exclude_none=True)
        text = content_text(dump.get("content"))
        if not text:
            return None
        metadata: Dict[str, Any] = dict(extra or {})
        metadata.update({"author": dump["author"], "timestamp": _iso(dump["timestamp"]), "event_id": dump["id"]})
        memory: MemoryIn = {
            "id": _memory_id(session_id, dump["id"]),
            "text": text,
            "namespace": self.namespace,
            "metadata": metadata,
        }
        if session_id:
            memory["session_id"] = _name(session_id, "adk-")
        return memory

    async def _write(self, app_name: str, user_id: str, items: List[MemoryIn]) -> None:
        def write() -> None:
            for start in range(0, len(items), self.batch):
                self.client.write_memories(app_name, user_id, items[start : start + self.batch])

        await asyncio.to_thread(write)

    async def add_session_to_memory(self, session: Session) -> None:
        """Each text event of the session becomes a memory; adding the session again adds only new events."""
        items = [self._memory_of(session.id, event, None) for event in session.events]
        await self._write(session.app_name, session.user_id, [item for item in items if item])

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: Optional[str] = None,
        custom_metadata: Optional[Mapping[str, object]] = None,
    ) -> None:
        """The text events given (a delta) become memories; ``custom_metadata`` joins their metadata."""
        items = [self._memory_of(session_id, event, custom_metadata) for event in events]
        await self._write(app_name, user_id, [item for item in items if item])

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[Union[MemoryEntry, str]],
        custom_metadata: Optional[Mapping[str, object]] = None,
    ) -> None:
        """Writes memories directly: ADK 2.13's ``MemoryEntry`` (its text parts; its ``id`` when it is a valid
        name), or a plain string as the memory's text."""
        items: List[MemoryIn] = []
        for entry in memories:
            if isinstance(entry, str):
                entry = MemoryEntry.model_validate({"content": {"role": "user", "parts": [{"text": entry}]}})
            dump = entry.model_dump(mode="json", exclude_none=True)
            text = content_text(dump.get("content"))
            if not text:
                continue
            metadata: Dict[str, Any] = dict(custom_metadata or {})
            metadata.update(dump.get("custom_metadata") or {})
            metadata.update({k: dump[k] for k in ("author", "timestamp") if k in dump})
            item: MemoryIn = {"text": text, "namespace": self.namespace, "metadata": metadata}
            if dump.get("id"):
                item["id"] = _name(dump["id"], "adk-")
            items.append(item)
        await self._write(app_name, user_id, items)

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str) -> None:
        """Forgets one memory by the ``id`` search_memory answered; a missing one is a no-op."""
        try:
            await asyncio.to_thread(self.client.delete_memory, app_name, user_id, memory_id)
        except NotFound:
            pass

    async def delete_memories(self, *, app_name: str, user_id: str) -> None:
        """Forgets every memory of the user in the app (sessions and state stay)."""

        def delete_all() -> None:
            for memory in list(self.client.iter_memories(app_name, user_id, page_size=1000)):
                try:
                    self.client.delete_memory(app_name, user_id, memory["id"])
                except NotFound:
                    pass  # expired or deleted meanwhile

        await asyncio.to_thread(delete_all)

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        if not query.strip():
            return SearchMemoryResponse(memories=[])
        recall = await asyncio.to_thread(
            self.client.recall,
            app_name,
            query,
            user=user_id,
            namespace=self.search_namespace,
            limit=self.limit,
        )
        entries = []
        for memory in recall["memories"]:
            metadata = memory.get("metadata") or {}
            author = metadata.get("author") if isinstance(metadata.get("author"), str) else None
            role = "user" if author == "user" else "model"
            entries.append(
                MemoryEntry.model_validate(
                    {
                        "id": memory["id"],
                        "content": {"role": role, "parts": [{"text": memory["text"]}]},
                        "custom_metadata": metadata,
                        "author": author,
                        "timestamp": metadata.get("timestamp") or memory.get("created_at"),
                    }
                )
            )
        return SearchMemoryResponse(memories=entries)
