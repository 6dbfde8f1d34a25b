"""What every group of client methods shares: the transport, paths and argument encoding."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union
from urllib.parse import quote

from .errors import NotFound
from .transport import QueryValue, Transport

Timestamp = Union[str, int, float, _dt.datetime]


def seg(name: str) -> str:
    """One path segment: names are percent-encoded whole (the daemon decodes them)."""
    return quote(name, safe="")


def app_path(app: str) -> str:
    return f"/v1/apps/{seg(app)}"


def user_path(app: str, user: str) -> str:
    return f"{app_path(app)}/users/{seg(user)}"


def session_path(app: str, user: str, session: str) -> str:
    return f"{user_path(app, user)}/sessions/{seg(session)}"


def encode_timestamp(value: Optional[Timestamp]) -> Optional[Union[str, int, float]]:
    """A request timestamp: RFC 3339 for datetimes (naive ones are taken as UTC), else as given."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    return value.astimezone(_dt.timezone.utc).isoformat().replace("+00:00", "Z")


def comma_list(value: Union[str, Sequence[str], None]) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def without_none(fields: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


def token_pages(fetch: Callable[[Optional[str]], Mapping[str, Any]], items: str) -> Iterator[Any]:
    """Every item of a listing paged by ``next_page_token``."""
    token: Optional[str] = None
    while True:
        page = fetch(token)
        yield from page[items]
        token = page.get("next_page_token")
        if not token:
            return


def seq_pages(fetch: Callable[[int], List[Any]], after_seq: int, page_size: int) -> Iterator[Any]:
    """Every item of a listing paged by ``after_seq``, until a page comes back short."""
    while True:
        page = fetch(after_seq)
        yield from page
        if len(page) < page_size or not page:
            return
        after_seq = page[-1]["seq"]


class ApiBase:
    """The transport and the one way every method calls it."""

    _transport: Transport

    def _call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = None,
        idempotent: bool,
        timeout: Optional[float] = None,
    ) -> Any:
        return self._transport.request(
            method, path, query=query, body=body, idempotent=idempotent, timeout=timeout
        ).body

    def _delete(self, path: str, query: Optional[Mapping[str, QueryValue]] = None) -> None:
        """A DELETE that is retried; NotFound on a retry means the lost first attempt did it."""
        try:
            self._call("DELETE", path, query=query, idempotent=True)
        except NotFound as exc:
            if exc.attempts == 1:
                raise
