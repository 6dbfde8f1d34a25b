"""mnemo: the Python client of mnemod, the session and memory daemon for AI agents.

    from mnemo import Client
    client = Client("http://127.0.0.1:7420", token="...")
    client.create_session("shop", "u1", id="s1")
    client.append_event("shop", "u1", "s1", {"author": "user", "content": {"text": "hi"}})

Framework adapters live in :mod:`mnemo.adapters` (Google ADK, OpenAI Agents SDK).
"""

from .client import DEFAULT_URL, Client
from .errors import (
    AlreadyExists,
    ApiError,
    Conflict,
    ConnectionFailed,
    HeadersTooLarge,
    HttpVersionNotSupported,
    Internal,
    InvalidArgument,
    MethodNotAllowed,
    MnemoError,
    NotFound,
    Overloaded,
    PayloadTooLarge,
    PermissionDenied,
    Rejected,
    RequestTimeout,
    Timeout,
    Unauthenticated,
    Unavailable,
)
from .ids import uuid7
from .transport import RetryPolicy

__version__ = "0.1.0"

__all__ = [
    "Client",
    "DEFAULT_URL",
    "RetryPolicy",
    "uuid7",
    "MnemoError",
    "ConnectionFailed",
    "Timeout",
    "ApiError",
    "InvalidArgument",
    "Unauthenticated",
    "PermissionDenied",
    "NotFound",
    "MethodNotAllowed",
    "RequestTimeout",
    "AlreadyExists",
    "Conflict",
    "PayloadTooLarge",
    "Rejected",
    "Overloaded",
    "HeadersTooLarge",
    "Internal",
    "Unavailable",
    "HttpVersionNotSupported",
]
