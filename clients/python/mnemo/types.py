"""The JSON objects of the API as typed dictionaries.

Answers are returned as the daemon sent them (plain dicts and lists, so
``content`` and ``metadata`` stay exactly the JSON that was stored); these
types say which keys they hold. Keys the daemon adds later simply appear.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict

JSON = Any
State = Dict[str, JSON]


class Usage(TypedDict, total=False):
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    total_tokens: int
    cost_usd: float


class Session(TypedDict, total=False):
    app: str
    user: str
    id: str
    title: str
    parent_id: Optional[str]
    created_at: str
    updated_at: str
    expires_at: Optional[str]
    version: int
    state: State  # absent in lists
    metadata: Dict[str, JSON]
    event_count: int
    usage: Usage


class ToolCall(TypedDict, total=False):
    name: str
    arguments: JSON
    result_summary: str
    status: str


class Media(TypedDict, total=False):
    kind: str
    path: str
    mime_type: str
    sha256: str


class EventIn(TypedDict, total=False):
    """An event to append; ``author`` is required, ``id`` is filled in by the client when absent."""

    id: str
    invocation_id: str
    author: str
    role: str  # user | assistant | system | tool | summary
    content: JSON
    partial: bool
    state_delta: State
    usage: Usage
    tool_calls: List[ToolCall]
    media: List[Media]
    filter_key: str
    timestamp: Any  # RFC 3339 string or Unix seconds
    metadata: Dict[str, JSON]


class Event(EventIn, total=False):
    """A stored event: the request form plus its ``seq`` and ``timestamp``."""

    seq: int
    deleted: bool


class Summary(TypedDict, total=False):
    filter_key: str
    text: str
    from_seq: int
    up_to_seq: int
    events_covered: int
    created_at: str
    source: str


class SessionView(TypedDict):
    """``GET .../sessions/{id}``: the session, its events and the checkpoint summary."""

    session: Session
    events: List[Event]
    summary: Optional[Summary]


class AppendedEvent(TypedDict):
    id: str
    seq: int
    timestamp: str


class AppendResult(TypedDict, total=False):
    version: int
    appended: List[AppendedEvent]
    skipped_partial: int
    dropped: int
    evicted: int
    summary_enqueued: bool
    state: State  # only when an event of the batch carried a state_delta


class SessionPage(TypedDict):
    sessions: List[Session]
    next_page_token: Optional[str]


class EventPage(TypedDict):
    events: List[Event]
    next_after_seq: Optional[int]


class RewriteResult(TypedDict):
    version: int
    replaced: int


class RewindResult(TypedDict):
    rewound_count: int
    turns_undone: int
    target_text: Optional[str]
    version: int


class StateWrite(TypedDict, total=False):
    version: int
    state: State


class PurgeCounts(TypedDict, total=False):
    sessions: int
    events: int
    summaries: int
    tracks: int
    lanes: int
    state_keys: int
    memories: int


class TrackEvent(TypedDict):
    seq: int
    payload: JSON
    timestamp: str


class TrackInfo(TypedDict):
    track: str
    events: int
    last_seq: int
    last_timestamp: str


class TrackPage(TypedDict):
    tracks: List[TrackInfo]
    next_page_token: Optional[str]


class SearchHit(TypedDict):
    seq: int
    role: str
    excerpt: str
    context: List[Event]


class SearchResult(TypedDict):
    session: Session
    hits: List[SearchHit]


class Lane(TypedDict, total=False):
    app: str
    lane: str
    session_id: str
    user: str
    platform: str
    chat_type: str
    updated_at: str
    suspended: bool
    resume_pending: bool
    resume_reason: Optional[str]
    was_auto_reset: bool
    auto_reset_reason: Optional[str]
    reset_had_activity: bool
    is_fresh_reset: bool


class LaneResolution(TypedDict, total=False):
    lane: Lane
    session: Session
    created: bool


class LanePage(TypedDict):
    lanes: List[Lane]
    next_page_token: Optional[str]


class ResetPolicy(TypedDict):
    mode: str  # none | idle | daily | both
    at_hour: int
    idle_minutes: int
    notify: bool


class ResetMatch(TypedDict, total=False):
    platform: str
    chat_type: str


class ResetOverride(TypedDict):
    match: ResetMatch
    policy: ResetPolicy


class ResetPolicies(TypedDict):
    timezone: str
    default: ResetPolicy
    overrides: List[ResetOverride]


class AppActivity(TypedDict):
    app: str
    configured: bool
    users: int
    sessions: int
    events: int
    memories: int
    last_active_at: Optional[str]


class UserActivity(TypedDict):
    user: str
    sessions: int
    events: int
    memories: int
    last_active_at: Optional[str]


class UserPage(TypedDict):
    users: List[UserActivity]
    next_page_token: Optional[str]


class MemoryIn(TypedDict, total=False):
    """A memory to write; ``text`` is required."""

    id: str
    text: str
    namespace: str
    metadata: Dict[str, JSON]
    session_id: str
    embedding: List[float]
    embedding_model: str
    ttl_seconds: int


class Memory(TypedDict, total=False):
    id: str
    app: str
    user: str
    namespace: str
    text: str
    metadata: Dict[str, JSON]
    session_id: Optional[str]
    source: Optional[Dict[str, JSON]]
    embedding: str  # ready | pending | failed | none
    embedding_model: Optional[str]
    created_at: str
    updated_at: str
    expires_at: Optional[str]
    vector: List[float]  # only with include_embedding=True


class MemoryWritten(TypedDict):
    id: str
    created: bool
    embedding: str


class MemoryPage(TypedDict):
    memories: List[Memory]
    next_page_token: Optional[str]


class RecalledMemory(Memory, total=False):
    score: float
    similarity: Optional[float]
    keyword_rank: Optional[int]
    vector_rank: Optional[int]


class Recall(TypedDict):
    mode: str
    memories: List[RecalledMemory]


class StorageInfo(TypedDict):
    plugin: str
    abi_version: int
    capabilities: List[str]


class Info(TypedDict):
    version: str
    storage: StorageInfo
    uptime_seconds: float
