"""The exceptions of the mnemo client: one class per error code of the API.

Every error the daemon answers becomes an :class:`ApiError` subclass chosen by
the body's ``error.code``; a daemon that cannot be reached, or a connection
lost before the answer, becomes :class:`ConnectionFailed`. Each carries how
many attempts were made, so a caller can tell "failed after retries" apart.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class MnemoError(Exception):
    """Base of every error raised by the client."""

    def __init__(self, message: str, *, attempts: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.attempts = attempts

    def __str__(self) -> str:
        return self.message + (f" (after {self.attempts} attempts)" if self.attempts > 1 else "")


class ConnectionFailed(MnemoError):
    """The daemon could not be reached, or the connection broke before the answer."""


class Timeout(ConnectionFailed):
    """No answer within the client's timeout."""


class ApiError(MnemoError):
    """An error answer of the daemon: HTTP status, ``error.code``, message and details."""

    code = ""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        details: Optional[Dict[str, Any]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message, attempts=attempts)
        self.status = status
        self.code = code
        self.details: Dict[str, Any] = details or {}
        self.request_id = request_id
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f", request {self.request_id}" if self.request_id else ""
        tries = f", after {self.attempts} attempts" if self.attempts > 1 else ""
        return f"{self.status} {self.code}: {self.message}{where}{tries}"


class InvalidArgument(ApiError):
    code = "invalid_argument"


class Unauthenticated(ApiError):
    code = "unauthenticated"


class PermissionDenied(ApiError):
    code = "permission_denied"


class NotFound(ApiError):
    code = "not_found"


class MethodNotAllowed(ApiError):
    code = "method_not_allowed"


class RequestTimeout(ApiError):
    code = "request_timeout"


class AlreadyExists(ApiError):
    code = "already_exists"


class Conflict(ApiError):
    """``expected_version`` did not match, or a client event id was reused for other content."""

    code = "conflict"

    @property
    def current_version(self) -> Optional[int]:
        value = self.details.get("current_version")
        return value if isinstance(value, int) else None


class PayloadTooLarge(ApiError):
    code = "payload_too_large"


class Rejected(ApiError):
    """A Lua hook refused the write; the message is the hook's text."""

    code = "rejected"


class Overloaded(ApiError):
    """429: a queue or connection limit is full; ``retry_after`` says when to come back."""

    code = "overloaded"


class HeadersTooLarge(ApiError):
    code = "headers_too_large"


class Internal(ApiError):
    code = "internal"


class Unavailable(ApiError):
    """503: storage unreachable or the daemon is draining; ``retry_after`` is set."""

    code = "unavailable"


class HttpVersionNotSupported(ApiError):
    code = "http_version_not_supported"


_BY_CODE: Dict[str, Type[ApiError]] = {
    cls.code: cls
    for cls in (
        InvalidArgument,
        Unauthenticated,
        PermissionDenied,
        NotFound,
        MethodNotAllowed,
        RequestTimeout,
        AlreadyExists,
        Conflict,
        PayloadTooLarge,
        Rejected,
        Overloaded,
        HeadersTooLarge,
        Internal,
        Unavailable,
        HttpVersionNotSupported,
    )
}

# An answer without the API's error body (a proxy in between, say) is
# classified by its status alone.
_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: InvalidArgument,
    401: Unauthenticated,
    403: PermissionDenied,
    404: NotFound,
    405: MethodNotAllowed,
    408: RequestTimeout,
    409: Conflict,
    413: PayloadTooLarge,
    422: Rejected,
    429: Overloaded,
    431: HeadersTooLarge,
    500: Internal,
    503: Unavailable,
    505: HttpVersionNotSupported,
}


def error_from_answer(
    status: int,
    body: Any,
    *,
    request_id: Optional[str],
    retry_after: Optional[float],
    attempts: int,
) -> ApiError:
    """The exception for an error answer: by ``error.code``, else by HTTP status."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code = error["code"]
        message = str(error.get("message", ""))
        details = error.get("details") if isinstance(error.get("details"), dict) else {}
    else:
        code = ""
        message = f"HTTP {status} without an error body"
        details = {}
    cls: Type[ApiError] = _BY_CODE.get(code) or _BY_STATUS.get(status) or ApiError
    return cls(
        message,
        status=status,
        code=code or cls.code or f"http_{status}",
        details=details,
        request_id=request_id,
        retry_after=retry_after,
        attempts=attempts,
    )
