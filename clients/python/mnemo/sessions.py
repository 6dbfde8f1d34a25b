"""Sessions and what hangs off one: events, rewind and rewrite, summaries, tracks, user purge."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union, cast

from ._api import (
    ApiBase,
    Timestamp,
    app_path,
    comma_list,
    encode_timestamp,
    seg,
    seq_pages,
    session_path,
    token_pages,
    user_path,
    without_none,
)
from .errors import AlreadyExists
from .ids import uuid7
from .types import (
    JSON,
    AppendResult,
    Event,
    EventIn,
    EventPage,
    PurgeCounts,
    RewindResult,
    RewriteResult,
    Session,
    SessionPage,
    SessionView,
    State,
    Summary,
    TrackEvent,
    TrackInfo,
    TrackPage,
)

Roles = Union[str, Sequence[str], None]


def with_client_ids(events: Iterable[EventIn]) -> List[EventIn]:
    """Copies of the events, each with an ``id`` (a new UUIDv7 where the caller gave none)."""
    named: List[EventIn] = []
    for event in events:
        event = cast(EventIn, dict(event))
        if not event.get("id"):
            event["id"] = uuid7()
        named.append(event)
    return named


class SessionsApi(ApiBase):
    # ---- sessions

    def create_session(
        self,
        app: str,
        user: str,
        *,
        id: Optional[str] = None,
        state: Optional[State] = None,
        metadata: Optional[Dict[str, JSON]] = None,
        title: Optional[str] = None,
        parent_id: Optional[str] = None,
        ttl_seconds: Optional[int] = None,
        store_nulls: bool = False,
    ) -> Session:
        """Creates a session (a UUIDv7 id is chosen here when ``id`` is None) and answers it.

        ``store_nulls=True`` keeps a ``None`` in ``state`` as the key's value
        (mnemod's ``"state_nulls": "store"``) instead of leaving the key out.

        Raises :class:`AlreadyExists` when the id is taken. When the first
        attempt's answer was lost and the retry finds the session, that
        session is answered: it is the one this call created.
        """
        session_id = id or uuid7()
        body = without_none(
            {
                "id": session_id,
                "state": state,
                "metadata": metadata,
                "title": title,
                "parent_id": parent_id,
                "ttl_seconds": ttl_seconds,
                "state_nulls": "store" if store_nulls else None,
            }
        )
        try:
            return cast(Session, self._call("POST", f"{user_path(app, user)}/sessions", body=body, idempotent=True))
        except AlreadyExists as exc:
            if exc.attempts == 1:
                raise
            return self.get_session(app, user, session_id, num_recent_events=1)["session"]

    def get_session(
        self,
        app: str,
        user: str,
        session: str,
        *,
        num_recent_events: Optional[int] = None,
        after: Optional[Timestamp] = None,
        from_checkpoint: Optional[bool] = None,
        filter_key: Optional[str] = None,
    ) -> SessionView:
        """The session with its merged state, its events (oldest first) and the checkpoint summary."""
        query = {
            "num_recent_events": num_recent_events,
            "after": encode_timestamp(after),
            "from_checkpoint": from_checkpoint,
            "filter_key": filter_key,
        }
        return cast(SessionView, self._call("GET", session_path(app, user, session), query=query, idempotent=True))

    def list_sessions(
        self,
        app: str,
        user: Optional[str] = None,
        *,
        limit: Optional[int] = None,
        page_token: Optional[str] = None,
        active_within: Optional[int] = None,
    ) -> SessionPage:
        """One page of sessions, newest ``updated_at`` first; across the app's users when ``user`` is None."""
        query = {"limit": limit, "page_token": page_token, "active_within": active_within}
        path = f"{user_path(app, user)}/sessions" if user is not None else f"{app_path(app)}/sessions"
        return cast(SessionPage, self._call("GET", path, query=query, idempotent=True))

    def iter_sessions(
        self,
        app: str,
        user: Optional[str] = None,
        *,
        active_within: Optional[int] = None,
        page_size: Optional[int] = None,
    ) -> Iterator[Session]:
        """Every session of a user (or of the app), fetching pages as the iteration goes."""
        return token_pages(
            lambda token: self.list_sessions(
                app, user, limit=page_size, page_token=token, active_within=active_within
            ),
            "sessions",
        )

    def delete_session(self, app: str, user: str, session: str, *, hard: bool = False) -> None:
        """Deletes a session (``hard=True`` purges it now). An absent session raises :class:`NotFound`."""
        self._delete(session_path(app, user, session), query={"hard": hard or None})

    def purge_user(self, app: str, user: str) -> PurgeCounts:
        """Removes everything of one user in one app at once and answers what was removed."""
        return cast(PurgeCounts, self._call("DELETE", user_path(app, user), idempotent=True))

    # ---- events

    def append_events(
        self,
        app: str,
        user: str,
        session: str,
        events: Sequence[EventIn],
        *,
        expected_version: Optional[int] = None,
        create_if_missing: bool = False,
        store_nulls: bool = False,
    ) -> AppendResult:
        """Appends a batch of events, all or nothing.

        ``store_nulls=True`` stores a ``None`` in the events' state deltas as
        the key's value (mnemod's ``"state_nulls": "store"``) instead of
        deleting the key.

        Each event without an ``id`` gets a UUIDv7 here, before the first
        attempt, so a retry after a lost answer is recognised by the daemon
        and stored once. The events passed in are not modified; the ids are
        in the answer's ``appended``.
        """
        body: Dict[str, Any] = {"events": with_client_ids(events)}
        if expected_version is not None:
            body["expected_version"] = expected_version
        if create_if_missing:
            body["create_if_missing"] = True
        if store_nulls:
            body["state_nulls"] = "store"
        path = f"{session_path(app, user, session)}/events"
        return cast(AppendResult, self._call("POST", path, body=body, idempotent=True))

    def append_event(self, app: str, user: str, session: str, event: EventIn, **options: Any) -> AppendResult:
        """Appends one event; the options are those of :meth:`append_events`."""
        return self.append_events(app, user, session, [event], **options)

    def list_events(
        self,
        app: str,
        user: str,
        session: str,
        *,
        after_seq: Optional[int] = None,
        limit: Optional[int] = None,
        role: Roles = None,
        include_deleted: Optional[bool] = None,
    ) -> EventPage:
        """One page of events in ``seq`` order."""
        query = {
            "after_seq": after_seq,
            "limit": limit,
            "role": comma_list(role),
            "include_deleted": include_deleted,
        }
        path = f"{session_path(app, user, session)}/events"
        return cast(EventPage, self._call("GET", path, query=query, idempotent=True))

    def iter_events(
        self,
        app: str,
        user: str,
        session: str,
        *,
        after_seq: int = 0,
        role: Roles = None,
        include_deleted: Optional[bool] = None,
        page_size: int = 1000,
    ) -> Iterator[Event]:
        """Every event after ``after_seq``, fetching pages as the iteration goes."""
        after: Optional[int] = after_seq
        while after is not None:
            page = self.list_events(
                app, user, session, after_seq=after, limit=page_size, role=role, include_deleted=include_deleted
            )
            yield from page["events"]
            after = page.get("next_after_seq")

    def rewrite_events(
        self, app: str, user: str, session: str, events: Sequence[EventIn], *, expected_version: Optional[int] = None
    ) -> RewriteResult:
        """Replaces the whole transcript atomically (the old events are soft-deleted)."""
        body: Dict[str, Any] = {"events": list(events)}
        if expected_version is not None:
            body["expected_version"] = expected_version
        path = f"{session_path(app, user, session)}/events"
        return cast(RewriteResult, self._call("PUT", path, body=body, idempotent=expected_version is None))

    def rewind(self, app: str, user: str, session: str, turns: int = 1) -> RewindResult:
        """Soft-deletes the last ``turns`` user turns (each user event and everything after it)."""
        path = f"{session_path(app, user, session)}/rewind"
        return cast(RewindResult, self._call("POST", path, body={"turns": turns}, idempotent=False))

    # ---- summaries

    def list_summaries(self, app: str, user: str, session: str) -> List[Summary]:
        """The latest summary of each filter key."""
        path = f"{session_path(app, user, session)}/summaries"
        return cast(List[Summary], self._call("GET", path, idempotent=True)["summaries"])

    def post_summary(
        self,
        app: str,
        user: str,
        session: str,
        text: str,
        *,
        filter_key: Optional[str] = None,
        up_to_seq: Optional[int] = None,
    ) -> Summary:
        """Stores a summary written by the client (up to the last event by default)."""
        body = without_none({"text": text, "filter_key": filter_key, "up_to_seq": up_to_seq})
        path = f"{session_path(app, user, session)}/summaries"
        return cast(Summary, self._call("POST", path, body=body, idempotent=False))

    def summarize(
        self,
        app: str,
        user: str,
        session: str,
        *,
        filter_key: Optional[str] = None,
        force: Optional[bool] = None,
        wait: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Asks the daemon's summarizer for a summary: ``{"enqueued": True}``, or the Summary with ``wait``."""
        body = without_none({"filter_key": filter_key, "force": force, "wait": wait})
        path = f"{session_path(app, user, session)}/summarize"
        return cast(Dict[str, Any], self._call("POST", path, body=body, idempotent=not force, timeout=timeout))

    # ---- tracks

    def append_track(
        self, app: str, user: str, session: str, track: str, payload: JSON, *, timestamp: Optional[Timestamp] = None
    ) -> Dict[str, Any]:
        """Adds a track event (outside the transcript); answers its ``seq`` and ``timestamp``.

        A track event has no client id, so it is not sent again once a
        request went out: a lost answer raises :class:`ConnectionFailed`.
        """
        body = {"payload": payload}
        if timestamp is not None:
            body["timestamp"] = encode_timestamp(timestamp)
        path = f"{session_path(app, user, session)}/tracks/{seg(track)}"
        return cast(Dict[str, Any], self._call("POST", path, body=body, idempotent=False))

    def list_track(
        self,
        app: str,
        user: str,
        session: str,
        track: str,
        *,
        after_seq: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> List[TrackEvent]:
        path = f"{session_path(app, user, session)}/tracks/{seg(track)}"
        answer = self._call("GET", path, query={"after_seq": after_seq, "limit": limit}, idempotent=True)
        return cast(List[TrackEvent], answer["events"])

    def iter_track(
        self, app: str, user: str, session: str, track: str, *, after_seq: int = 0, page_size: int = 1000
    ) -> Iterator[TrackEvent]:
        """Every event of a track after ``after_seq``, fetching pages as the iteration goes."""
        return seq_pages(
            lambda after: self.list_track(app, user, session, track, after_seq=after, limit=page_size),
            after_seq,
            page_size,
        )

    def list_tracks(
        self, app: str, user: str, session: str, *, limit: Optional[int] = None, page_token: Optional[str] = None
    ) -> TrackPage:
        """One page of the session's track names by name, each with its count and last event."""
        path = f"{session_path(app, user, session)}/tracks"
        query = {"limit": limit, "page_token": page_token}
        return cast(TrackPage, self._call("GET", path, query=query, idempotent=True))

    def iter_tracks(
        self, app: str, user: str, session: str, *, page_size: Optional[int] = None
    ) -> Iterator[TrackInfo]:
        """Every track of the session, fetching pages as the iteration goes."""
        return token_pages(
            lambda token: self.list_tracks(app, user, session, limit=page_size, page_token=token), "tracks"
        )
