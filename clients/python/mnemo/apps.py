"""Apps and users: what the data holds, for an operator to browse before opening a session."""

from __future__ import annotations

from typing import Iterator, List, Optional, cast

from ._api import ApiBase, app_path, token_pages
from .types import AppActivity, UserActivity, UserPage


class AppsApi(ApiBase):
    def list_apps(self) -> List[AppActivity]:
        """Every app holding data or configured, by name, with its counts (an admin token only)."""
        return cast(List[AppActivity], self._call("GET", "/v1/apps", idempotent=True)["apps"])

    def list_users(self, app: str, *, limit: Optional[int] = None, page_token: Optional[str] = None) -> UserPage:
        """One page of the app's users holding data, most recently active first."""
        query = {"limit": limit, "page_token": page_token}
        return cast(UserPage, self._call("GET", f"{app_path(app)}/users", query=query, idempotent=True))

    def iter_users(self, app: str, *, page_size: Optional[int] = None) -> Iterator[UserActivity]:
        return token_pages(lambda token: self.list_users(app, limit=page_size, page_token=token), "users")
