"""An OpenAI Agents SDK ``Session`` backed by mnemod: ``MnemoSession``.

Written for openai-agents 0.24.0 (the ``Session`` protocol of
openai/openai-agents-python: ``session_id``, ``session_settings``,
``get_items(limit)``, ``add_items``, ``pop_item``, ``clear_session``) and
proven on it by tests/openai_agents_sdk, which mirror the SDK's own session
tests. The SDK checks the protocol structurally, so nothing of it is needed
here; with the SDK installed a session's default ``session_settings`` is its
``SessionSettings()``. Each call runs the synchronous client in a worker
thread (``asyncio.to_thread``).

Each input item is one mnemod event: the item itself in ``content.item``, its
text in ``content.text`` (for transcript search and memory capture), the
role mapped to mnemod's roles, and a client id so a retried write is stored
once.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

from ..client import Client
from ..errors import Conflict, NotFound
from ..ids import uuid7
from ..types import EventIn

Item = Dict[str, Any]

# The keys of a stored event that a rewrite sends back as they are.
_EVENT_KEYS = (
    "id",
    "invocation_id",
    "author",
    "role",
    "content",
    "usage",
    "tool_calls",
    "media",
    "timestamp",
    "metadata",
)


def item_text(item: Item) -> str:
    """The readable text of an input item: a message's text parts, or a tool output string."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(t for t in texts if t)
    output = item.get("output")
    return output if isinstance(output, str) else ""


def _author_and_role(item: Item) -> Tuple[str, str]:
    role = item.get("role")
    if role in ("user", "assistant", "system"):
        return role, role
    if role == "developer":
        return "developer", "system"
    if "output" in str(item.get("type", "")):
        return "tool", "tool"
    return "assistant", "assistant"


def to_mnemo_event(item: Item) -> EventIn:
    author, role = _author_and_role(item)
    content: Dict[str, Any] = {}
    text = item_text(item)
    if text:
        content["text"] = text
    content["item"] = item
    return {"id": uuid7(), "author": author, "role": role, "content": content}


def _item_of(stored: Mapping[str, Any]) -> Item:
    content = stored.get("content")
    if isinstance(content, dict) and isinstance(content.get("item"), dict):
        return cast(Item, content["item"])
    # Written by another client: a plain message, like the SDK's easy input form.
    text = content.get("text") if isinstance(content, dict) else content
    if not isinstance(text, str):
        text = ""
    role = stored.get("role") if stored.get("role") in ("user", "assistant", "system") else "assistant"
    return {"role": role, "content": text}


def _default_settings() -> Any:
    """The SDK's empty ``SessionSettings`` when the SDK is installed (as its own sessions default to), else None."""
    try:
        from agents.memory import SessionSettings  # type: ignore[import]
    except ImportError:
        return None
    return SessionSettings()


def mnemo_sessions(client: Client, *, app: str, user: str, **options: Any) -> Callable[..., "MnemoSession"]:
    """A factory of MnemoSessions of one user in one app: ``make(session_id, session_settings=None)``.

    ``options`` (``batch``) apply to every session it makes.
    """

    def make(session_id: str, session_settings: Any = None) -> MnemoSession:
        return MnemoSession(
            session_id, client=client, app=app, user=user, session_settings=session_settings, **options
        )

    return make


class MnemoSession:
    """Conversation history of one agent session, kept in a mnemod session.

    ``session_id`` names the mnemod session of ``user`` in ``app``; it is
    created by the first ``add_items``. ``session_settings`` (an SDK
    ``SessionSettings`` or anything with a ``limit``) gives the default
    ``limit`` of ``get_items``. ``batch`` is the most items sent in one
    request (mnemod's ``limits.max_batch_events``, 256 by default).
    """

    def __init__(
        self,
        session_id: str,
        *,
        client: Client,
        app: str,
        user: str,
        session_settings: Any = None,
        batch: int = 256,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings if session_settings is not None else _default_settings()
        self.client = client
        self.app = app
        self.user = user
        self.batch = batch

    def _limit(self, explicit: Optional[int]) -> Optional[int]:
        if explicit is not None:
            return explicit
        settings = self.session_settings
        if isinstance(settings, dict):
            return settings.get("limit")
        return getattr(settings, "limit", None)

    async def get_items(self, limit: Optional[int] = None) -> List[Item]:
        """The history oldest first; with a limit, the latest ``limit`` items (0 or negative: none, as the SDK's)."""
        effective = self._limit(limit)
        if effective is not None and effective <= 0:
            return []
        return await asyncio.to_thread(self._get_items, effective)

    def _get_items(self, limit: Optional[int]) -> List[Item]:
        try:
            if limit is not None:
                view = self.client.get_session(self.app, self.user, self.session_id, num_recent_events=limit)
                return [_item_of(e) for e in view["events"]]
            return [_item_of(e) for e in self.client.iter_events(self.app, self.user, self.session_id)]
        except NotFound:
            return []

    async def add_items(self, items: List[Item]) -> None:
        """Appends the items in order (creating the session at the first call), ``batch`` per atomic write."""
        if not items:
            return
        events = [to_mnemo_event(item) for item in items]

        def append() -> None:
            for start in range(0, len(events), self.batch):
                self.client.append_events(
                    self.app, self.user, self.session_id, events[start : start + self.batch], create_if_missing=True
                )

        await asyncio.to_thread(append)

    async def pop_item(self) -> Optional[Item]:
        """Removes and answers the newest item; None when the history is empty."""
        return await asyncio.to_thread(self._pop_item)

    def _pop_item(self, attempts: int = 5) -> Optional[Item]:
        for _ in range(attempts):
            try:
                view = self.client.get_session(self.app, self.user, self.session_id)
            except NotFound:
                return None
            events = view["events"]
            if not events:
                return None
            last = events[-1]
            try:
                self._remove_last(events, view["session"]["version"])
            except Conflict:
                continue  # another writer moved the session on: look again
            return _item_of(last)
        raise Conflict(
            f"pop_item on session {self.user}/{self.session_id}: the session kept changing during {attempts} tries",
            status=409,
            code="conflict",
        )

    def _remove_last(self, events: Sequence[Mapping[str, Any]], version: int) -> None:
        if len(events) == 1:
            self.client.delete_session(self.app, self.user, self.session_id)
        elif events[-1].get("role") == "user" and len(events) > self.batch:
            # Too long to rewrite in one batch; rewinding one user turn removes exactly the last event.
            self.client.rewind(self.app, self.user, self.session_id, 1)
        else:
            kept = [cast(EventIn, {k: e[k] for k in _EVENT_KEYS if k in e}) for e in events[:-1]]
            self.client.rewrite_events(self.app, self.user, self.session_id, kept, expected_version=version)

    async def clear_session(self) -> None:
        """Removes every item (the mnemod session is deleted; the next ``add_items`` starts a fresh one)."""

        def clear() -> None:
            try:
                self.client.delete_session(self.app, self.user, self.session_id)
            except NotFound:
                pass

        await asyncio.to_thread(clear)
