"""HTTP/1.1 to mnemod: kept-alive connections over TCP or a Unix socket, and retries.

The transport owns everything below the API's JSON: which socket, which
connection is reused, the bearer token, timeouts, and when a failed attempt is
tried again. The rule for retries is what the API promises: a 429 or 503
changed nothing, so any request is tried again after ``Retry-After``; a
connection that broke after the request went out may have done the work, so
only requests that are safe to repeat (reads, and writes the daemon recognises
as retries, such as appends with client ids) are sent again.
"""

from __future__ import annotations

import http.client
import json
import random
import select
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union
from urllib.parse import quote, unquote, urlencode, urlsplit

from .errors import ApiError, ConnectionFailed, MnemoError, Timeout, error_from_answer

__all__ = ["RetryPolicy", "Transport", "Answer"]

USER_AGENT = "mnemo-python/0.1"
QueryValue = Union[str, int, float, bool, None]


@dataclass
class RetryPolicy:
    """How often and how patiently a failed request is tried again.

    ``retries`` further attempts follow the first. The wait before each is the
    answer's ``Retry-After`` (capped at ``max_retry_after``) when it has one,
    else an exponential backoff from ``backoff`` up to ``max_backoff`` with
    jitter. ``sleep`` is how the client waits (tests pass their own).
    """

    retries: int = 2
    backoff: float = 0.1
    max_backoff: float = 5.0
    max_retry_after: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def delay(self, retry_number: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        ceiling = min(self.backoff * 2.0 ** (retry_number - 1), self.max_backoff)
        return ceiling / 2 + random.uniform(0, ceiling / 2)


@dataclass
class Answer:
    """A successful answer: status, decoded JSON body (None when empty) and request id."""

    status: int
    body: Any
    request_id: Optional[str]


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self._socket_path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self._socket_path)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


class _Endpoint:
    """Where the daemon listens: ``http://host:port``, ``https://...`` or ``unix:/path``."""

    def __init__(self, url: str) -> None:
        self.unix_path: Optional[str] = None
        self.prefix = ""
        if url.startswith("unix:"):
            self.unix_path = url[len("unix:") :]
            self.scheme, self.host, self.port = "unix", "localhost", None
        elif url.startswith("http+unix://"):
            self.unix_path = unquote(url[len("http+unix://") :].split("/", 1)[0])
            self.scheme, self.host, self.port = "unix", "localhost", None
        else:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(
                    f"mnemo: base URL {url!r} is not http://host:port, https://host:port or unix:/path"
                )
            self.scheme, self.host, self.port = parts.scheme, parts.hostname, parts.port
            self.prefix = parts.path.rstrip("/")
        if self.unix_path == "":
            raise ValueError(f"mnemo: base URL {url!r} names no socket path; write unix:/path/to/socket")

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        if self.unix_path is not None:
            return _UnixConnection(self.unix_path, timeout)
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def __str__(self) -> str:
        if self.unix_path is not None:
            return f"unix:{self.unix_path}"
        port = f":{self.port}" if self.port else ""
        return f"{self.scheme}://{self.host}{port}{self.prefix}"


def _closed_by_peer(conn: http.client.HTTPConnection) -> bool:
    # An idle kept-alive socket that reads as ready has been closed by the
    # daemon (idle_timeout) or holds bytes nobody asked for: never reuse it.
    sock = conn.sock
    if sock is None:
        return True
    try:
        if hasattr(select, "poll"):  # no FD_SETSIZE limit, unlike select()
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class _Pool:
    """Idle kept-alive connections, newest first; one connection serves one thread at a time."""

    def __init__(self, endpoint: _Endpoint, timeout: float, max_idle: int, idle_seconds: float) -> None:
        self._endpoint = endpoint
        self._timeout = timeout
        self._max_idle = max_idle
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._idle: List[Tuple[http.client.HTTPConnection, float]] = []

    def take(self) -> http.client.HTTPConnection:
        now = time.monotonic()
        while True:
            with self._lock:
                if not self._idle:
                    break
                conn, since = self._idle.pop()
            if now - since <= self._idle_seconds and not _closed_by_peer(conn):
                return conn
            conn.close()
        return self._endpoint.connect(self._timeout)

    def give_back(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < self._max_idle:
                self._idle.append((conn, time.monotonic()))
                return
        conn.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()


class _AttemptFailed(Exception):
    """One attempt failed in a way that may be retried."""

    def __init__(self, error: MnemoError, retry_after: Optional[float] = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.retry_after = retry_after


def _retry_after(value: Optional[str]) -> Optional[float]:
    if value is None:
        return None
    try:
        # A header sent twice reaches us joined by a comma ("1, 1").
        return float(value.split(",")[0].strip())
    except ValueError:
        return None  # an HTTP date: mnemod never sends one; fall back to backoff


def encode_query(query: Optional[Mapping[str, QueryValue]]) -> str:
    if not query:
        return ""
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((key, str(value)))
    return "?" + urlencode(pairs, quote_via=quote) if pairs else ""


class Transport:
    """Sends requests to one daemon and answers decoded JSON, raising the API's exceptions."""

    def __init__(
        self,
        url: str,
        *,
        token: Optional[str] = None,
        timeout: float = 30.0,
        retry: Optional[RetryPolicy] = None,
        max_idle_connections: int = 8,
        idle_seconds: float = 30.0,
    ) -> None:
        self.endpoint = _Endpoint(url)
        self.token = token
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._pool = _Pool(self.endpoint, timeout, max_idle_connections, idle_seconds)

    def close(self) -> None:
        self._pool.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = None,
        idempotent: bool,
        timeout: Optional[float] = None,
        raw: bool = False,
        retries: Optional[int] = None,
    ) -> Answer:
        """Sends one API call, trying again as the retry policy and ``idempotent`` allow.

        The body is encoded once, so every attempt sends the same bytes (the
        daemon recognises a retried event by its content's exact bytes).
        """
        payload = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", "X-Request-Id": str(uuid.uuid4())}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        target = self.endpoint.prefix + path + encode_query(query)
        attempts = (self.retry.retries if retries is None else retries) + 1
        for attempt in range(1, attempts + 1):
            try:
                return self._attempt(method, target, payload, headers, idempotent, timeout, raw, attempt)
            except _AttemptFailed as failed:
                if attempt == attempts:
                    failed.error.attempts = attempt
                    raise failed.error from None
                self.retry.sleep(self.retry.delay(attempt, failed.retry_after))
        raise AssertionError("unreachable")

    def _attempt(
        self,
        method: str,
        target: str,
        payload: Optional[bytes],
        headers: Dict[str, str],
        idempotent: bool,
        timeout: Optional[float],
        raw: bool,
        attempt: int,
    ) -> Answer:
        conn = self._pool.take()
        sent = False
        try:
            if conn.sock is None:
                conn.connect()
            conn.sock.settimeout(timeout if timeout is not None else self.timeout)  # type: ignore[union-attr]
            sent = True
            conn.request(method, target, body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            error = self._connection_error(method, target, exc, sent, attempt)
            # Once the request went out the daemon may have done the work, even
            # on a reused connection; only a request safe to repeat goes again.
            if not sent or idempotent:
                raise _AttemptFailed(error) from None
            raise error from None
        if response.will_close:
            conn.close()
        else:
            self._pool.give_back(conn)
        request_id = response.getheader("X-Request-Id")
        status = response.status
        if 200 <= status < 300:
            return Answer(status, self._decode(data, status, raw, request_id), request_id)
        retry_after = _retry_after(response.getheader("Retry-After"))
        refusal = error_from_answer(
            status,
            self._decode_error(data),
            request_id=request_id,
            retry_after=retry_after,
            attempts=attempt,
        )
        if status in (429, 503) or (status == 408 and idempotent):
            raise _AttemptFailed(refusal, retry_after)
        raise refusal

    def _connection_error(
        self, method: str, target: str, exc: BaseException, sent: bool, attempt: int
    ) -> ConnectionFailed:
        stage = "waiting for the answer to" if sent else "connecting for"
        cls = Timeout if isinstance(exc, socket.timeout) else ConnectionFailed
        detail = str(exc) or type(exc).__name__
        return cls(
            f"mnemod at {self.endpoint} failed while {stage} {method} {target}: {detail}; "
            "is the daemon running and is the URL right?",
            attempts=attempt,
        )

    @staticmethod
    def _decode(data: bytes, status: int, raw: bool, request_id: Optional[str]) -> Any:
        if raw:
            return data.decode("utf-8", errors="replace")
        if not data:
            return None
        try:
            return json.loads(data)
        except ValueError as exc:
            raise ApiError(
                f"mnemod answered {status} with a body that is not JSON: {exc}",
                status=status,
                code="bad_answer",
                request_id=request_id,
            ) from None

    @staticmethod
    def _decode_error(data: bytes) -> Any:
        try:
            return json.loads(data) if data else None
        except ValueError:
            return None
