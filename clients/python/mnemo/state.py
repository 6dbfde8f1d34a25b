"""State at its three scopes: a session's, the app's and a user's."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from ._api import ApiBase, app_path, seg, session_path, user_path
from .types import State, StateWrite


class StateApi(ApiBase):
    def patch_session_state(
        self,
        app: str,
        user: str,
        session: str,
        state_delta: State,
        *,
        expected_version: Optional[int] = None,
        store_nulls: bool = False,
    ) -> StateWrite:
        """Applies a delta (``app:``/``user:``/``temp:`` prefixes as in events; ``None`` deletes a key).

        ``store_nulls=True``: a ``None`` is stored as the key's value instead.

        Applying the same delta twice leaves the same state, so the request is
        retried after a lost answer, unless ``expected_version`` makes it
        conditional.
        """
        body: Dict[str, Any] = {"state_delta": state_delta}
        if expected_version is not None:
            body["expected_version"] = expected_version
        if store_nulls:
            body["state_nulls"] = "store"
        path = f"{session_path(app, user, session)}/state"
        return cast(StateWrite, self._call("PATCH", path, body=body, idempotent=expected_version is None))

    def get_app_state(self, app: str) -> State:
        return cast(State, self._call("GET", f"{app_path(app)}/state", idempotent=True)["state"])

    def patch_app_state(self, app: str, state_delta: State) -> State:
        answer = self._call("PATCH", f"{app_path(app)}/state", body={"state_delta": state_delta}, idempotent=True)
        return cast(State, answer["state"])

    def delete_app_state_key(self, app: str, key: str) -> None:
        self._delete(f"{app_path(app)}/state/{seg(key)}")

    def get_user_state(self, app: str, user: str) -> State:
        return cast(State, self._call("GET", f"{user_path(app, user)}/state", idempotent=True)["state"])

    def patch_user_state(self, app: str, user: str, state_delta: State) -> State:
        path = f"{user_path(app, user)}/state"
        return cast(State, self._call("PATCH", path, body={"state_delta": state_delta}, idempotent=True)["state"])

    def delete_user_state_key(self, app: str, user: str, key: str) -> None:
        self._delete(f"{user_path(app, user)}/state/{seg(key)}")
