"""Bad days: a daemon down, draining (503/429), overloaded (429), lost answers, silent servers, idle reuse."""

from __future__ import annotations

import http.client
import signal
import socket
import threading
import time
from typing import Iterator

import pytest
from conftest import Sleeps, free_port
from netfakes import Proxy, ScriptedServer, SilentServer

import mnemo
from mnemo import Client, RetryPolicy

APP, USER = "shop", "u1"


def client_for(url: str, retries: int = 2, **options) -> "tuple[Client, Sleeps]":
    sleeps = Sleeps()
    return Client(url, retry=RetryPolicy(retries=retries, sleep=sleeps), **options), sleeps


def hold_the_only_connection(port: int) -> http.client.HTTPConnection:
    """A kept-alive connection the daemon admitted (the start-up probe's may still be closing)."""
    deadline = time.monotonic() + 10
    while True:
        held = http.client.HTTPConnection("127.0.0.1", port)
        held.request("GET", "/healthz")
        answer = held.getresponse()
        answer.read()
        if answer.status == 200 or time.monotonic() > deadline:
            assert answer.status == 200
            return held
        held.close()
        time.sleep(0.05)


def test_daemon_down_raises_connection_failed_after_the_retries() -> None:
    client, sleeps = client_for(f"http://127.0.0.1:{free_port()}", retries=3)
    with pytest.raises(mnemo.ConnectionFailed) as raised:
        client.append_track(APP, USER, "s1", "t", {})  # never sent, so even a track write is retried
    assert raised.value.attempts == 4 and len(sleeps.waits) == 3
    assert "is the daemon running" in str(raised.value)
    unix, _ = client_for("unix:/nonexistent/mnemod.sock", retries=0)
    with pytest.raises(mnemo.ConnectionFailed):
        unix.healthz()


def test_overloaded_429_honours_retry_after_then_raises(start_daemon) -> None:
    daemon = start_daemon("memory", server="  max_connections: 1\n")
    held = hold_the_only_connection(daemon.port)
    client, sleeps = client_for(daemon.url, retries=2)
    with pytest.raises(mnemo.Overloaded) as raised:
        client.create_session(APP, USER, id="s1")
    assert raised.value.status == 429 and raised.value.attempts == 3
    assert raised.value.retry_after == 1.0 and sleeps.waits == [1.0, 1.0]
    assert "max_connections" in raised.value.message
    held.close()
    time.sleep(0.2)  # the daemon notices the closed connection
    assert client.create_session(APP, USER, id="s1")["id"] == "s1"


def test_draining_daemon_refuses_with_typed_errors(start_daemon) -> None:
    daemon = start_daemon("memory", server="  drain_timeout: 20s\n")
    client, sleeps = client_for(daemon.url, retries=1)
    client.create_session(APP, USER, id="s1")
    # A request begun before SIGTERM keeps the daemon draining until it ends.
    body = b'{"events":[{"author":"user","content":{"text":"last words"}}]}'
    held = socket.create_connection(("127.0.0.1", daemon.port))
    head = (
        f"POST /v1/apps/{APP}/users/{USER}/sessions/s1/events HTTP/1.1\r\nHost: x\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    held.sendall(head + body[:10])
    time.sleep(0.2)
    daemon.signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    while "received: draining" not in daemon.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    # The client's kept-alive connection is closed by the drain and new ones are refused.
    with pytest.raises(mnemo.ConnectionFailed) as raised:
        client.get_session(APP, USER, "s1")
    assert raised.value.attempts == 2 and len(sleeps.waits) == 1
    assert "Connection refused" in raised.value.message
    assert client.ready() is False
    held.sendall(body[10:])
    assert b"200 OK" in held.recv(4096)
    held.close()
    assert daemon.process.wait(timeout=20) == 0


def test_daemons_503_is_retried_after_its_retry_after_then_raised(daemon) -> None:
    client, sleeps = client_for(daemon.url, retries=2)
    client.create_session(APP, USER, id="s1")
    client.append_event(APP, USER, "s1", {"author": "user", "content": "x"})
    with pytest.raises(mnemo.Unavailable) as raised:  # no summarizer is registered
        client.summarize(APP, USER, "s1", wait=True)
    assert raised.value.status == 503 and raised.value.attempts == 3 and sleeps.waits == [1.0, 1.0]
    assert "summarizer" in raised.value.message


def test_unavailable_503_is_retried_after_retry_after_then_raised() -> None:
    error = {"error": {"code": "unavailable", "message": "storage unreachable", "details": {}}}
    server = ScriptedServer([(503, {"Retry-After": "2"}, error)])
    try:
        client, sleeps = client_for(server.url, retries=2)
        with pytest.raises(mnemo.Unavailable) as raised:
            client.append_event(APP, USER, "s1", {"author": "user", "content": "x"})
        assert raised.value.attempts == 3 and sleeps.waits == [2.0, 2.0] and len(server.paths) == 3
        assert raised.value.message == "storage unreachable" and raised.value.retry_after == 2.0
    finally:
        server.close()


def test_a_503_then_success_answers_the_success() -> None:
    error = {"error": {"code": "unavailable", "message": "the daemon is draining", "details": {}}}
    server = ScriptedServer([(503, {"Retry-After": "1"}, error), (200, {}, {"status": "ok"})])
    try:
        client, sleeps = client_for(server.url, retries=2)
        assert client.healthz() is True and sleeps.waits == [1.0]
    finally:
        server.close()


def test_an_error_without_the_api_body_is_classified_by_status() -> None:
    server = ScriptedServer([(404, {}, {"detail": "not here"})])
    try:
        with pytest.raises(mnemo.NotFound) as raised:
            client_for(server.url)[0].info()
        assert raised.value.status == 404
    finally:
        server.close()


@pytest.fixture
def proxy(daemon) -> Iterator[Proxy]:
    front = Proxy(daemon.port)
    yield front
    front.close()


def test_append_retried_after_a_lost_answer_is_stored_once(proxy: Proxy) -> None:
    client, sleeps = client_for(proxy.url)
    client.create_session(APP, USER, id="s1")
    proxy.lose_answers = 1
    result = client.append_events(
        APP,
        USER,
        "s1",
        [{"author": "user", "content": {"text": "once"}}, {"author": "bot", "content": "only once"}],
    )
    assert [a["seq"] for a in result["appended"]] == [1, 2] and result["version"] == 2
    assert len(sleeps.waits) == 1
    appends = [line for line in proxy.request_lines() if line.startswith("POST") and "/events " in line]
    assert len(appends) == 2  # the lost attempt and its retry reached the daemon
    events = client.get_session(APP, USER, "s1")["events"]
    assert [e["content"] for e in events] == [{"text": "once"}, "only once"]
    assert [e["id"] for e in events] == [a["id"] for a in result["appended"]]


def test_a_conditional_append_retried_after_a_lost_answer_is_not_a_conflict(proxy: Proxy) -> None:
    client, _ = client_for(proxy.url)
    client.create_session(APP, USER, id="s1")
    proxy.lose_answers = 1
    result = client.append_event(APP, USER, "s1", {"author": "user", "content": "x"}, expected_version=1)
    assert result["version"] == 2 and result["appended"][0]["seq"] == 1
    assert client.get_session(APP, USER, "s1")["session"]["event_count"] == 1


def test_create_retried_after_a_lost_answer_answers_the_created_session(proxy: Proxy) -> None:
    client, _ = client_for(proxy.url)
    proxy.lose_answers = 1
    created = client.create_session(APP, USER, state={"k": 1})
    assert created["state"] == {"k": 1}
    assert [s["id"] for s in client.iter_sessions(APP, USER)] == [created["id"]]


def test_a_delete_retried_after_a_lost_answer_succeeds(proxy: Proxy) -> None:
    client, _ = client_for(proxy.url)
    client.create_session(APP, USER, id="s1")
    client.write_memory(APP, USER, "to forget", id="m1")
    proxy.lose_answers = 2
    client.delete_session(APP, USER, "s1")
    client.delete_memory(APP, USER, "m1")
    deletes = [line for line in proxy.request_lines() if line.startswith("DELETE")]
    assert len(deletes) == 4  # each sent twice; the retries answered 404, which means done
    with pytest.raises(mnemo.NotFound):
        client.delete_session(APP, USER, "s1")


def test_a_lost_answer_to_a_write_without_client_id_is_not_sent_again(proxy: Proxy) -> None:
    client, sleeps = client_for(proxy.url)
    client.create_session(APP, USER, id="s1")
    proxy.lose_answers = 1
    with pytest.raises(mnemo.ConnectionFailed) as raised:
        client.append_track(APP, USER, "s1", "log", {"n": 1})
    assert raised.value.attempts == 1 and sleeps.waits == []
    assert [t["payload"] for t in client.list_track(APP, USER, "s1", "log")] == [{"n": 1}]


def test_connections_are_kept_alive_and_reused(proxy: Proxy) -> None:
    client, _ = client_for(proxy.url)
    client.create_session(APP, USER, id="s1")
    for i in range(5):
        client.append_event(APP, USER, "s1", {"author": "user", "content": {"text": f"m{i}"}})
    assert client.get_session(APP, USER, "s1")["session"]["event_count"] == 5
    assert proxy.connections == 1


def test_one_client_shared_by_threads(proxy: Proxy) -> None:
    client, _ = client_for(proxy.url, max_idle_connections=4)
    client.create_session(APP, USER, id="s1")

    def writer(n: int) -> None:
        for i in range(10):
            client.append_event(APP, USER, "s1", {"author": f"w{n}", "content": {"text": f"{n}-{i}"}})

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    events = list(client.iter_events(APP, USER, "s1"))
    assert sorted(e["content"]["text"] for e in events) == sorted(f"{n}-{i}" for n in range(4) for i in range(10))
    assert [e["seq"] for e in events] == list(range(1, 41))
    assert proxy.connections <= 4


def test_a_connection_the_daemon_closed_when_idle_is_not_reused(start_daemon) -> None:
    daemon = start_daemon("memory", server="  idle_timeout: 1s\n")
    client, _ = client_for(daemon.url, retries=0)
    client.create_session(APP, USER, id="s1")
    time.sleep(1.5)  # past idle_timeout: the daemon has closed the kept-alive connection
    assert client.append_track(APP, USER, "s1", "log", {"n": 1})["seq"] == 1


def test_silent_server_times_out() -> None:
    server = SilentServer()
    try:
        client, _ = client_for(server.url, retries=0, timeout=0.3)
        with pytest.raises(mnemo.Timeout) as raised:
            client.healthz()
        assert raised.value.attempts == 1
    finally:
        server.close()
