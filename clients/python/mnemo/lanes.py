"""Lanes: stable keys for conversation places, pointing at their current session."""

from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, cast

from ._api import ApiBase, app_path, seg, token_pages, without_none
from .types import JSON, Lane, LanePage, LaneResolution, ResetPolicies


class LanesApi(ApiBase):
    def _lane(self, app: str, lane: str) -> str:
        return f"{app_path(app)}/lanes/{seg(lane)}"

    def resolve_lane(
        self,
        app: str,
        lane: str,
        user: str,
        *,
        platform: Optional[str] = None,
        chat_type: Optional[str] = None,
        force_new: Optional[bool] = None,
        metadata: Optional[Dict[str, JSON]] = None,
    ) -> LaneResolution:
        """The lane's current session, moving to a fresh one when its reset policy says so."""
        body = without_none(
            {"user": user, "platform": platform, "chat_type": chat_type, "force_new": force_new, "metadata": metadata}
        )
        path = f"{self._lane(app, lane)}/resolve"
        return cast(LaneResolution, self._call("POST", path, body=body, idempotent=not force_new))

    def get_lane(self, app: str, lane: str) -> Lane:
        return cast(Lane, self._call("GET", self._lane(app, lane), idempotent=True))

    def list_lanes(
        self,
        app: str,
        *,
        limit: Optional[int] = None,
        page_token: Optional[str] = None,
        active_within: Optional[int] = None,
    ) -> LanePage:
        query = {"limit": limit, "page_token": page_token, "active_within": active_within}
        return cast(LanePage, self._call("GET", f"{app_path(app)}/lanes", query=query, idempotent=True))

    def iter_lanes(
        self, app: str, *, active_within: Optional[int] = None, page_size: Optional[int] = None
    ) -> Iterator[Lane]:
        return token_pages(
            lambda token: self.list_lanes(app, limit=page_size, page_token=token, active_within=active_within),
            "lanes",
        )

    def reset_lane(self, app: str, lane: str) -> LaneResolution:
        """Moves the lane to a new session now (not sent again after a lost answer)."""
        return cast(LaneResolution, self._call("POST", f"{self._lane(app, lane)}/reset", idempotent=False))

    def switch_lane(self, app: str, lane: str, session_id: str) -> LaneResolution:
        path = f"{self._lane(app, lane)}/switch"
        return cast(LaneResolution, self._call("POST", path, body={"session_id": session_id}, idempotent=True))

    def suspend_lane(self, app: str, lane: str) -> Lane:
        return cast(Lane, self._call("POST", f"{self._lane(app, lane)}/suspend", idempotent=True))

    def resume_pending(self, app: str, lane: str, reason: str) -> Lane:
        path = f"{self._lane(app, lane)}/resume-pending"
        return cast(Lane, self._call("POST", path, body={"reason": reason}, idempotent=True))

    def turn_complete(
        self, app: str, lane: str, *, input_tokens: Optional[int] = None, output_tokens: Optional[int] = None
    ) -> Lane:
        body: Dict[str, Any] = without_none({"input_tokens": input_tokens, "output_tokens": output_tokens})
        path = f"{self._lane(app, lane)}/turn-complete"
        return cast(Lane, self._call("POST", path, body=body, idempotent=not body))

    def get_reset_policies(self, app: str) -> ResetPolicies:
        """The reset policies lanes follow, as the daemon runs them (the same for every app)."""
        return cast(ResetPolicies, self._call("GET", f"{app_path(app)}/reset-policies", idempotent=True))
