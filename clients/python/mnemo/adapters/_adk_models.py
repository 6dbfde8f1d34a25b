"""Google ADK's classes when google-adk is installed, else small stand-ins with the same shape.

The adapters only use what ADK 1.4 to 2.13 document: the fields of ``Session``,
``Event``, ``GetSessionConfig``, ``ListSessionsResponse``, ``MemoryEntry`` and
``SearchMemoryResponse``, pydantic's ``model_dump(mode="json",
exclude_none=True)`` and ``model_validate``, and the base services' default
``append_event``. With ADK installed they are ADK's own classes, so the
services plug into ``Runner``; without it the stand-ins below behave the same
for those uses, which is how the adapters are tested where ADK cannot be
installed.
"""

from __future__ import annotations

import abc
import dataclasses
import random
import string
import time
from typing import Any, Dict, List, Optional, Type, TypeVar

M = TypeVar("M", bound="_Model")

try:  # pragma: no cover - exercised only where google-adk is installed
    from google.adk.errors import StaleSessionError  # type: ignore[import]
    from google.adk.errors.already_exists_error import AlreadyExistsError  # type: ignore[import]
    from google.adk.errors.session_not_found_error import SessionNotFoundError  # type: ignore[import]
    from google.adk.events.event import Event  # type: ignore[import]
    from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse  # type: ignore[import]
    from google.adk.memory.memory_entry import MemoryEntry  # type: ignore[import]
    from google.adk.sessions.base_session_service import (  # type: ignore[import]
        BaseSessionService,
        GetSessionConfig,
        ListSessionsResponse,
    )
    from google.adk.sessions.session import Session  # type: ignore[import]

    ADK_INSTALLED = True
except ImportError:
    ADK_INSTALLED = False

    class AlreadyExistsError(Exception):  # type: ignore[no-redef]
        """ADK 2.x's error for a session id already in use."""

    class SessionNotFoundError(ValueError):  # type: ignore[no-redef]
        """ADK 2.x's error for an append to a session that does not exist."""

    class StaleSessionError(ValueError):  # type: ignore[no-redef]
        """ADK 2.x's error for an append through a session object older than the stored session."""

    def _dump(value: Any) -> Any:
        if isinstance(value, _Model):
            return value.model_dump(mode="json", exclude_none=True)
        if isinstance(value, (list, tuple, set)):
            return [_dump(item) for item in value]
        if isinstance(value, dict):
            return {key: _dump(item) for key, item in value.items()}
        return value

    class _Model:
        """The two pydantic methods the adapters call, on a dataclass."""

        _nested: Dict[str, Type["_Model"]] = {}
        _nested_lists: Dict[str, Type["_Model"]] = {}

        def model_dump(
            self, mode: str = "json", exclude_none: bool = True, exclude: Optional[Dict[str, Any]] = None
        ) -> Dict[str, Any]:
            out = {}
            for f in dataclasses.fields(self):
                value = getattr(self, f.name)
                left_out = (exclude or {}).get(f.name)
                if (value is None and exclude_none) or left_out is True:
                    continue
                if left_out and isinstance(value, _Model):  # pydantic's nested form: {"field": {"sub"}}
                    out[f.name] = value.model_dump(mode, exclude_none, {name: True for name in left_out})
                    continue
                out[f.name] = _dump(value)
            return out

        @classmethod
        def model_validate(cls: Type[M], data: Any) -> M:
            if isinstance(data, cls):
                return data
            values = dict(data)
            for name, kind in cls._nested.items():
                if isinstance(values.get(name), dict):
                    values[name] = kind.model_validate(values[name])
            for name, kind in cls._nested_lists.items():
                if isinstance(values.get(name), list):
                    values[name] = [kind.model_validate(v) if isinstance(v, dict) else v for v in values[name]]
            return cls(**values)

    @dataclasses.dataclass
    class Part(_Model):
        text: Optional[str] = None
        function_call: Optional[Dict[str, Any]] = None
        function_response: Optional[Dict[str, Any]] = None

    @dataclasses.dataclass
    class Content(_Model):
        role: Optional[str] = None
        parts: Optional[List[Part]] = None
        _nested_lists = {"parts": Part}

    @dataclasses.dataclass
    class EventActions(_Model):
        skip_summarization: Optional[bool] = None
        state_delta: Dict[str, Any] = dataclasses.field(default_factory=dict)
        artifact_delta: Dict[str, int] = dataclasses.field(default_factory=dict)
        transfer_to_agent: Optional[str] = None
        escalate: Optional[bool] = None

    def _new_event_id() -> str:
        return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(8))

    @dataclasses.dataclass
    class Event(_Model):  # type: ignore[no-redef]
        author: str
        invocation_id: str = ""
        content: Optional[Content] = None
        actions: EventActions = dataclasses.field(default_factory=EventActions)
        partial: Optional[bool] = None
        turn_complete: Optional[bool] = None
        error_code: Optional[str] = None
        error_message: Optional[str] = None
        branch: Optional[str] = None
        usage_metadata: Optional[Dict[str, Any]] = None
        custom_metadata: Optional[Dict[str, Any]] = None
        id: str = ""
        timestamp: float = dataclasses.field(default_factory=time.time)
        _nested = {"content": Content, "actions": EventActions}

        def __post_init__(self) -> None:
            if not self.id:
                self.id = _new_event_id()

    @dataclasses.dataclass
    class Session(_Model):  # type: ignore[no-redef]
        id: str
        app_name: str
        user_id: str
        state: Dict[str, Any] = dataclasses.field(default_factory=dict)
        events: List[Event] = dataclasses.field(default_factory=list)
        last_update_time: float = 0.0

    @dataclasses.dataclass
    class GetSessionConfig(_Model):  # type: ignore[no-redef]
        num_recent_events: Optional[int] = None
        after_timestamp: Optional[float] = None

    @dataclasses.dataclass
    class ListSessionsResponse(_Model):  # type: ignore[no-redef]
        sessions: List[Session] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass
    class MemoryEntry(_Model):  # type: ignore[no-redef]
        content: Content
        custom_metadata: Dict[str, Any] = dataclasses.field(default_factory=dict)
        id: Optional[str] = None
        author: Optional[str] = None
        timestamp: Optional[str] = None
        _nested = {"content": Content}

    @dataclasses.dataclass
    class SearchMemoryResponse(_Model):  # type: ignore[no-redef]
        memories: List[MemoryEntry] = dataclasses.field(default_factory=list)

    class BaseSessionService(abc.ABC):  # type: ignore[no-redef]
        """ADK 1.38's base: its default ``append_event`` is what subclasses call after storing.

        ``temp:`` keys reach the session object's state for the invocation
        but are trimmed from the event, so they are never persisted.
        """

        async def append_event(self, session: Session, event: Event) -> Event:
            if event.partial:
                return event
            delta = event.actions.state_delta or {}
            event.actions.state_delta = {k: v for k, v in delta.items() if not k.startswith("temp:")}
            session.state.update(delta)
            session.events.append(event)
            return event

    class BaseMemoryService(abc.ABC):  # type: ignore[no-redef]
        pass


__all__ = [
    "ADK_INSTALLED",
    "AlreadyExistsError",
    "SessionNotFoundError",
    "StaleSessionError",
    "BaseMemoryService",
    "BaseSessionService",
    "Event",
    "GetSessionConfig",
    "ListSessionsResponse",
    "MemoryEntry",
    "SearchMemoryResponse",
    "Session",
]
