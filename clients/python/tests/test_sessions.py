"""Sessions, events, state, summaries, tracks, search, purge and operations through the client."""

from __future__ import annotations

import pytest

import mnemo
from mnemo import Client

APP, USER = "shop", "u1"


def text(value: str, author: str = "user") -> dict:
    return {"author": author, "content": {"text": value}}


def test_create_get_and_list_sessions(client: Client) -> None:
    created = client.create_session(APP, USER, id="s1", state={"cart": 2, "app:currency": "EUR"}, title="first")
    assert created["id"] == "s1" and created["version"] == 1 and created["title"] == "first"
    assert created["state"] == {"cart": 2, "app:currency": "EUR"}
    generated = client.create_session(APP, USER)
    assert len(generated["id"]) == 36 and generated["id"][14] == "7"  # a UUIDv7 named by the client
    view = client.get_session(APP, USER, "s1")
    assert view["session"]["state"]["app:currency"] == "EUR" and view["events"] == [] and view["summary"] is None
    page = client.list_sessions(APP, USER, limit=1)
    assert len(page["sessions"]) == 1 and page["next_page_token"]
    assert {s["id"] for s in client.iter_sessions(APP, USER, page_size=1)} == {"s1", generated["id"]}
    client.create_session(APP, "u2", id="s9")
    assert {s["user"] for s in client.iter_sessions(APP)} == {USER, "u2"}


def test_create_with_a_taken_id_raises_already_exists(client: Client) -> None:
    client.create_session(APP, USER, id="dup")
    with pytest.raises(mnemo.AlreadyExists) as raised:
        client.create_session(APP, USER, id="dup")
    assert raised.value.status == 409 and raised.value.attempts == 1 and raised.value.request_id


def test_missing_session_raises_not_found_with_the_daemons_message(client: Client) -> None:
    with pytest.raises(mnemo.NotFound) as raised:
        client.get_session(APP, USER, "nope")
    assert "nope" in raised.value.message and raised.value.code == "not_found"
    with pytest.raises(mnemo.NotFound):
        client.delete_session(APP, USER, "nope")


def test_bad_name_raises_invalid_argument(client: Client) -> None:
    with pytest.raises(mnemo.InvalidArgument) as raised:
        client.create_session(APP, USER, id="has space")
    assert raised.value.status == 400


def test_append_gives_client_ids_and_a_retry_is_stored_once(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    events = [text("hello"), text("hi there", author="bot")]
    first = client.append_events(APP, USER, "s1", events)
    assert [a["seq"] for a in first["appended"]] == [1, 2] and first["version"] == 2
    assert "id" not in events[0]  # the caller's dicts are left alone
    ids = [a["id"] for a in first["appended"]]
    assert all(len(i) == 36 for i in ids)
    again = client.append_events(APP, USER, "s1", [dict(e, id=i) for e, i in zip(events, ids)])
    assert [a["seq"] for a in again["appended"]] == [1, 2] and again["version"] == 2
    stored = client.get_session(APP, USER, "s1")["events"]
    assert [e["id"] for e in stored] == ids and [e["role"] for e in stored] == ["user", "assistant"]


def test_a_client_id_reused_for_other_content_is_a_conflict(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_event(APP, USER, "s1", dict(text("first"), id="e1"))
    with pytest.raises(mnemo.Conflict):
        client.append_event(APP, USER, "s1", dict(text("second"), id="e1"))
    assert [e["content"] for e in client.get_session(APP, USER, "s1")["events"]] == [{"text": "first"}]


def test_stale_expected_version_raises_conflict_with_current_version(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_event(APP, USER, "s1", text("one"))
    with pytest.raises(mnemo.Conflict) as raised:
        client.append_event(APP, USER, "s1", text("two"), expected_version=1)
    assert raised.value.current_version == 2
    assert client.append_event(APP, USER, "s1", text("two"), expected_version=2)["version"] == 3


def test_create_if_missing_and_state_delta_scopes(client: Client) -> None:
    result = client.append_event(
        APP,
        USER,
        "fresh",
        {"author": "user", "state_delta": {"cart": 3, "temp:draft": "x", "app:promo": "p", "user:lang": "de"}},
        create_if_missing=True,
    )
    assert result["state"]["temp:draft"] == "x" and result["state"]["cart"] == 3
    stored = client.get_session(APP, USER, "fresh")
    assert "temp:draft" not in stored["session"]["state"]
    assert "temp:draft" not in stored["events"][0]["state_delta"]
    assert client.get_app_state(APP) == {"promo": "p"}
    assert client.get_user_state(APP, USER) == {"lang": "de"}


def test_event_reads_recent_after_and_pages(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_events(
        APP, USER, "s1", [dict(text(f"m{i}"), timestamp=1_800_000_000 + i) for i in range(5)]
    )
    recent = client.get_session(APP, USER, "s1", num_recent_events=2)["events"]
    assert [e["content"]["text"] for e in recent] == ["m3", "m4"]
    after = client.get_session(APP, USER, "s1", after=1_800_000_002)["events"]
    assert [e["content"]["text"] for e in after] == ["m3", "m4"]
    page = client.list_events(APP, USER, "s1", limit=2)
    assert [e["seq"] for e in page["events"]] == [1, 2] and page["next_after_seq"] == 2
    assert [e["seq"] for e in client.iter_events(APP, USER, "s1", page_size=2)] == [1, 2, 3, 4, 5]
    assert [e["seq"] for e in client.iter_events(APP, USER, "s1", after_seq=3, page_size=2)] == [4, 5]


def test_rewind_rewrite_and_deleted_events(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_events(APP, USER, "s1", [text("q1"), text("a1", "bot"), text("q2"), text("a2", "bot")])
    rewound = client.rewind(APP, USER, "s1")
    assert rewound["rewound_count"] == 2 and rewound["target_text"] == "q2"
    assert len(client.list_events(APP, USER, "s1")["events"]) == 2
    assert len(client.list_events(APP, USER, "s1", include_deleted=True)["events"]) == 4
    version = client.get_session(APP, USER, "s1")["session"]["version"]
    rewritten = client.rewrite_events(APP, USER, "s1", [text("only")], expected_version=version)
    assert rewritten["replaced"] == 2
    assert [e["content"] for e in client.get_session(APP, USER, "s1")["events"]] == [{"text": "only"}]
    assert [e["role"] for e in client.list_events(APP, USER, "s1", role=["user"])["events"]] == ["user"]


def test_state_at_three_scopes(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    written = client.patch_session_state(APP, USER, "s1", {"step": 1, "user:tz": "UTC"})
    assert written["version"] == 2 and written["state"]["step"] == 1
    assert client.patch_app_state(APP, {"mode": "live"}) == {"mode": "live"}
    assert client.patch_user_state(APP, USER, {"name": "Ann"}) == {"tz": "UTC", "name": "Ann"}
    client.delete_user_state_key(APP, USER, "tz")
    client.delete_app_state_key(APP, "mode")
    assert client.get_user_state(APP, USER) == {"name": "Ann"} and client.get_app_state(APP) == {}
    merged = client.get_session(APP, USER, "s1")["session"]["state"]
    assert merged == {"step": 1, "user:name": "Ann"}
    with pytest.raises(mnemo.Conflict):
        client.patch_session_state(APP, USER, "s1", {"step": 2}, expected_version=1)


def test_summaries_and_checkpoint_reads(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_events(APP, USER, "s1", [text("a"), text("b"), text("c")])
    summary = client.post_summary(APP, USER, "s1", "a and b", up_to_seq=2)
    assert summary["from_seq"] == 1 and summary["up_to_seq"] == 2 and summary["source"] == "client"
    assert client.list_summaries(APP, USER, "s1") == [summary]
    view = client.get_session(APP, USER, "s1", from_checkpoint=True)
    assert view["summary"]["text"] == "a and b" and [e["seq"] for e in view["events"]] == [3]


def test_tracks(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    for i in range(3):
        assert client.append_track(APP, USER, "s1", "tool:log", {"n": i})["seq"] == i + 1
    assert [t["payload"] for t in client.list_track(APP, USER, "s1", "tool:log", after_seq=1)] == [{"n": 1}, {"n": 2}]
    assert [t["seq"] for t in client.iter_track(APP, USER, "s1", "tool:log", page_size=2)] == [1, 2, 3]
    assert client.get_session(APP, USER, "s1")["session"]["event_count"] == 0


def test_list_tracks_names_each_with_its_last_event(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    for track in ("ui", "audit", "audit", "tool:log"):
        last = client.append_track(APP, USER, "s1", track, {"on": track}, timestamp="2026-11-21T10:05:00Z")
    page = client.list_tracks(APP, USER, "s1", limit=2)
    assert [(t["track"], t["events"], t["last_seq"]) for t in page["tracks"]] == [("audit", 2, 2), ("tool:log", 1, 1)]
    assert page["next_page_token"] and page["tracks"][1]["last_timestamp"] == last["timestamp"]
    assert [t["track"] for t in client.iter_tracks(APP, USER, "s1", page_size=2)] == ["audit", "tool:log", "ui"]
    with pytest.raises(mnemo.NotFound):
        client.list_tracks(APP, USER, "missing")


def test_search_finds_exact_strings(client: Client) -> None:
    client.create_session(APP, USER, id="s1", metadata={"channel": "cli"})
    client.append_events(APP, USER, "s1", [text("deploy with make -C /srv/app deploy"), text("ok", "bot")])
    results = client.search(APP, "/srv/app", user=USER, channel="cli")
    assert [r["session"]["id"] for r in results] == ["s1"]
    assert results[0]["hits"][0]["seq"] == 1 and "/srv/app" in results[0]["hits"][0]["excerpt"]
    assert client.search(APP, "absent-word") == []
    assert [r["session"]["id"] for r in client.search(APP)] == ["s1"]


def test_purge_user_counts_what_it_removed(client: Client) -> None:
    client.create_session(APP, USER, id="s1")
    client.append_events(APP, USER, "s1", [text("a"), text("b")])
    client.patch_user_state(APP, USER, {"k": 1})
    client.write_memory(APP, USER, "likes tea")
    counts = client.purge_user(APP, USER)
    assert counts["sessions"] == 1 and counts["events"] == 2 and counts["state_keys"] == 1
    assert counts["memories"] == 1
    assert client.list_sessions(APP, USER)["sessions"] == []


def test_operations(daemon, client: Client) -> None:
    assert client.healthz() is True
    assert client.ready() is True
    info = client.info()
    assert info["storage"]["plugin"] == daemon.backend
    assert "mnemo_http_requests_total" in client.metrics()


def test_unix_socket_listener(daemon) -> None:
    with Client(daemon.unix_url) as unix:
        unix.create_session(APP, USER, id="over-unix")
        assert unix.get_session(APP, USER, "over-unix")["session"]["id"] == "over-unix"


def test_bearer_token(start_daemon) -> None:
    daemon = start_daemon(
        "memory", sections="auth: {required: true, admin_tokens: [adm]}\napps: {shop: {tokens: [t-shop]}}\n"
    )
    with pytest.raises(mnemo.Unauthenticated):
        Client(daemon.url, token="").create_session(APP, USER)
    with pytest.raises(mnemo.PermissionDenied):
        Client(daemon.url, token="t-shop").create_session("other", USER)
    assert Client(daemon.url, token="t-shop").create_session(APP, USER, id="ok")["id"] == "ok"
    assert Client(daemon.url, token="adm").info()["storage"]["plugin"] == "memory"
