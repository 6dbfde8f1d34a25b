"""Apps and users through the client: the admin's list of apps with counts, an app's users by activity."""

from __future__ import annotations

import pytest

import mnemo
from mnemo import Client

AUTH = "auth: {required: true, admin_tokens: [adm]}\napps: {shop: {tokens: [t-shop]}, idle: {}}\n"


def test_list_apps_counts_each_apps_data_and_needs_an_admin_token(start_daemon) -> None:
    daemon = start_daemon("memory", sections=AUTH)
    shop = Client(daemon.url, token="t-shop")
    shop.create_session("shop", "u1", id="s1")
    shop.append_event("shop", "u1", "s1", {"author": "user", "content": {"text": "hi"}})
    shop.create_session("shop", "u2", id="s2")
    apps = {app["app"]: app for app in Client(daemon.url, token="adm").list_apps()}
    assert apps["shop"]["configured"] is True and apps["shop"]["last_active_at"]
    assert (apps["shop"]["users"], apps["shop"]["sessions"], apps["shop"]["events"]) == (2, 2, 1)
    assert (apps["idle"]["sessions"], apps["idle"]["last_active_at"]) == (0, None)
    with pytest.raises(mnemo.PermissionDenied):
        shop.list_apps()


def test_list_users_most_recently_active_first(client: Client) -> None:
    for user in ("u1", "u2", "u3"):
        client.create_session("shop", user, id=f"s-{user}")
    client.append_event("shop", "u1", "s-u1", {"author": "user", "content": {"text": "latest"}})
    page = client.list_users("shop", limit=2)
    assert [(u["user"], u["sessions"], u["events"]) for u in page["users"]] == [("u1", 1, 1), ("u3", 1, 0)]
    assert page["next_page_token"]
    assert [u["user"] for u in client.iter_users("shop", page_size=2)] == ["u1", "u3", "u2"]
