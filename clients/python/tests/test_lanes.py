"""Lanes through the client: resolve, read, list, reset, switch, suspend, resume-pending, turn-complete."""

from __future__ import annotations

import pytest

import mnemo
from mnemo import Client

APP, USER, LANE = "shop", "u1", "telegram:dm:12345"


def test_resolve_reuses_the_lanes_session(client: Client) -> None:
    first = client.resolve_lane(APP, LANE, USER, platform="telegram", chat_type="dm")
    assert first["created"] is True and first["lane"]["session_id"] == first["session"]["id"]
    again = client.resolve_lane(APP, LANE, USER)
    assert again["created"] is False and again["session"]["id"] == first["session"]["id"]
    assert client.get_lane(APP, LANE)["platform"] == "telegram"
    forced = client.resolve_lane(APP, LANE, USER, force_new=True)
    assert forced["session"]["id"] != first["session"]["id"]
    assert forced["session"]["parent_id"] == first["session"]["id"]


def test_list_and_iterate_lanes(client: Client) -> None:
    for i in range(3):
        client.resolve_lane(APP, f"slack:c{i}", USER)
    page = client.list_lanes(APP, limit=2)
    assert len(page["lanes"]) == 2 and page["next_page_token"]
    assert sorted(lane["lane"] for lane in client.iter_lanes(APP, page_size=2)) == [f"slack:c{i}" for i in range(3)]


def test_reset_switch_suspend_resume_and_turn_complete(client: Client) -> None:
    original = client.resolve_lane(APP, LANE, USER)["session"]["id"]
    reset = client.reset_lane(APP, LANE)
    assert reset["lane"]["is_fresh_reset"] is True and reset["session"]["id"] != original
    switched = client.switch_lane(APP, LANE, original)
    assert switched["lane"]["session_id"] == original
    pending = client.resume_pending(APP, LANE, "restart_timeout")
    assert pending["resume_pending"] is True and pending["resume_reason"] == "restart_timeout"
    done = client.turn_complete(APP, LANE, input_tokens=5, output_tokens=7)
    assert done["resume_pending"] is False and done["resume_reason"] is None
    assert client.suspend_lane(APP, LANE)["suspended"] is True
    resumed = client.resolve_lane(APP, LANE, USER)
    assert resumed["lane"]["auto_reset_reason"] == "suspended" and resumed["session"]["id"] != original


def test_unknown_lane_is_not_found(client: Client) -> None:
    with pytest.raises(mnemo.NotFound):
        client.get_lane(APP, "nowhere")


def test_reset_policies_merge_each_override_over_the_default(start_daemon) -> None:
    reset = (
        "reset: {timezone: Europe/Berlin, default: {mode: both, at_hour: 3},"
        " overrides: [{match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 60}}]}\n"
    )
    policies = Client(start_daemon("memory", sections=reset).url).get_reset_policies(APP)
    assert policies["timezone"] == "Europe/Berlin" and policies["default"]["at_hour"] == 3
    assert policies["overrides"] == [
        {"match": {"platform": "telegram", "chat_type": "dm"},
         "policy": {"mode": "idle", "at_hour": 3, "idle_minutes": 60, "notify": policies["default"]["notify"]}}
    ]
