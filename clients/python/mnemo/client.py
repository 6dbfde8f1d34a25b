"""The mnemod client: one object for every route of the API, over one kept-alive transport."""

from __future__ import annotations

import dataclasses
import os
from typing import Any, List, Optional, cast

from ._api import app_path, comma_list
from .apps import AppsApi
from .errors import ConnectionFailed, Overloaded, Unavailable
from .lanes import LanesApi
from .memories import MemoriesApi
from .sessions import Roles, SessionsApi
from .state import StateApi
from .transport import RetryPolicy, Transport
from .types import Info, SearchResult

DEFAULT_URL = "http://127.0.0.1:7420"


class Client(AppsApi, SessionsApi, StateApi, LanesApi, MemoriesApi):
    """A synchronous client for one mnemod.

    ``url`` is ``http://host:port``, ``https://host:port`` or
    ``unix:/path/to/socket`` (a ``server.listen`` entry of the daemon);
    ``MNEMO_URL`` and ``MNEMO_TOKEN`` in the environment are the defaults.
    ``timeout`` bounds each socket operation, in seconds. ``retries`` (or a
    whole :class:`RetryPolicy`) says how often a request is tried again after
    a 429, a 503 or a broken connection. The client is safe to share between
    threads: each request takes its own kept-alive connection from a pool.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        token: Optional[str] = None,
        timeout: float = 30.0,
        retries: Optional[int] = None,
        retry: Optional[RetryPolicy] = None,
        max_idle_connections: int = 8,
    ) -> None:
        policy = retry or RetryPolicy()
        if retries is not None:
            policy = dataclasses.replace(policy, retries=retries)
        self._transport = Transport(
            url or os.environ.get("MNEMO_URL") or DEFAULT_URL,
            token=token if token is not None else os.environ.get("MNEMO_TOKEN"),
            timeout=timeout,
            retry=policy,
            max_idle_connections=max_idle_connections,
        )

    @property
    def retry(self) -> RetryPolicy:
        return self._transport.retry

    def close(self) -> None:
        """Closes the idle connections (the client stays usable: it reconnects when needed)."""
        self._transport.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- search over transcripts

    def search(
        self,
        app: str,
        q: Optional[str] = None,
        *,
        user: Optional[str] = None,
        channel: Optional[str] = None,
        exclude_session: Optional[str] = None,
        role: Roles = None,
        limit: Optional[int] = None,
        context: Optional[int] = None,
    ) -> List[SearchResult]:
        """Sessions whose events match ``q`` (words, or exact strings such as paths), best first."""
        query = {
            "q": q,
            "user": user,
            "channel": channel,
            "exclude_session": exclude_session,
            "role": comma_list(role),
            "limit": limit,
            "context": context,
        }
        answer = self._call("GET", f"{app_path(app)}/search", query=query, idempotent=True)
        return cast(List[SearchResult], answer["results"])

    # ---- operations

    def healthz(self) -> bool:
        """True while the daemon process serves."""
        return bool(self._call("GET", "/healthz", idempotent=True).get("status") == "ok")

    def ready(self) -> bool:
        """True when storage answers and the daemon is not draining (asked once, never retried).

        False too when the daemon refuses or cannot be reached, as while it drains.
        """
        try:
            self._transport.request("GET", "/readyz", idempotent=True, retries=0)
        except (Unavailable, Overloaded, ConnectionFailed):
            return False
        return True

    def info(self) -> Info:
        return cast(Info, self._call("GET", "/v1/info", idempotent=True))

    def metrics(self) -> str:
        """The Prometheus text of ``/metrics``."""
        return cast(str, self._transport.request("GET", "/metrics", idempotent=True, raw=True).body)
