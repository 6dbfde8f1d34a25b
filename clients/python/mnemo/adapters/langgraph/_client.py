"""The client a LangGraph adapter talks through: the one given, or one built from url and token."""

from __future__ import annotations

from typing import Optional

from ...client import Client


def client_for(adapter: str, *, app: str, user: str, url: Optional[str], token: Optional[str],
               client: Optional[Client]) -> Client:
    """``client`` when given, else a Client of ``url`` and ``token`` (MNEMO_URL and MNEMO_TOKEN by default)."""
    if not app or not user:
        raise ValueError(f"{adapter} needs both app and user: the mnemod app and user whose data it keeps")
    return client if client is not None else Client(url, token=token)
