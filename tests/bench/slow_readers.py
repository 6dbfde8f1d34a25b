#!/usr/bin/python3
"""Memory a daemon keeps for clients that ask for large answers and never read them.

    MNEMOD_BIN=build/daemon/mnemod MNEMO_PLUGIN_DIR=build/plugins tests/bench/slow_readers.py [--rounds 6]

Issue 37's probe, as rounds: ten clients each pipeline 40 requests for an
8 MB answer (--session-mb; GET of a session, a page of memories, or MCP
get_conversation, which escapes it into a larger one) and read nothing;
once the daemon's RSS stops growing the round's peak is taken
(VmHWM, reset per round through /proc/<pid>/clear_refs), then every client
closes and RSS is read again once it settles. Prints one line a round and
checks the two targets of the issue, as ratios to what this run measured
(no time is asserted):

- a never-reading connection holds at most about server.output_limit plus
  one answer: (peak - before) / clients <= 1.25 x (output_limit + answer);
- after they close, RSS comes back to within 25% of what it was before
  they came, round after round.

Exit 1 when a target is missed. /usr/bin/python3, standard library only
(the daemon fixture is tests/fixtures/mnemod_daemon.py).
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from mnemod_daemon import Daemon  # noqa: E402

MIB = 1 << 20
OUTPUT_LIMIT = 4 * MIB
ANSWER = 8 * MIB
CLIENTS = 10
PIPELINED = 40
EVENT_TEXT = 100_000  # bytes of one event's text; ten of them a megabyte


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def settled_rss(pid: int, quiet_samples: int = 10) -> int:
    """VmRSS once it has not moved by more than 1 MiB for quiet_samples reads 100 ms apart (at most 30 s)."""
    last, quiet = status_kib(pid, "VmRSS"), 0
    for _ in range(300):
        time.sleep(0.1)
        now = status_kib(pid, "VmRSS")
        quiet = quiet + 1 if abs(now - last) <= 1024 else 0
        last = now
        if quiet >= quiet_samples:
            break
    return last


def request(daemon: Daemon, method: str, path: str, body: object = None, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=120)
    payload = None if body is None else json.dumps(body)
    conn.request(method, path, payload, {"Content-Type": "application/json", **(headers or {})})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    if answer.status >= 300:
        raise RuntimeError(f"{method} {path}: {answer.status} {data[:300]!r}")
    return answer, data


def prefill(daemon: Daemon, megabytes: int) -> dict[str, tuple[str, str, dict]]:
    """Ten sessions of `megabytes` MB and as many 100 KB memories; the requests each client repeats, by kind."""
    text = "x" * EVENT_TEXT
    count = 10 * megabytes
    for user in range(CLIENTS):
        base = f"/v1/apps/shop/users/u{user}"
        for _ in range(megabytes):
            events = [{"author": "user", "content": {"text": text}} for _ in range(10)]
            request(daemon, "POST", f"{base}/sessions/big/events", {"create_if_missing": True, "events": events})
    for batch in range(megabytes):
        memories = [{"text": f"memory {batch}.{n} {text}"} for n in range(10)]
        request(daemon, "POST", "/v1/apps/shop/users/u0/memories", {"memories": memories})
    answer, _ = request(
        daemon,
        "POST",
        "/v1/apps/shop/users/u0/mcp",
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}},
        {"Accept": "application/json, text/event-stream"},
    )
    mcp_session = answer.getheader("Mcp-Session-Id")
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "get_conversation", "arguments": {"session_id": "big", "num_recent_events": count}}}
    return {
        "session": ("GET", "/v1/apps/shop/users/u{user}/sessions/big?num_recent_events=" + str(count), "", {}),
        "memories": ("GET", "/v1/apps/shop/users/u0/memories?limit=" + str(count), "", {}),
        "mcp": ("POST", "/v1/apps/shop/users/u0/mcp", json.dumps(call),
                {"Accept": "application/json, text/event-stream", "Mcp-Session-Id": mcp_session,
                 "Mcp-Protocol-Version": "2025-11-25"}),
    }


def raw_request(method: str, path: str, body: str, headers: dict) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: bench"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n" + body).encode()


def answer_size(daemon: Daemon, method: str, path: str, body: str, headers: dict) -> int:
    with socket.create_connection(("127.0.0.1", daemon.port)) as sock:
        sock.sendall(raw_request(method, path, body, headers) + raw_request("GET", "/healthz", "", {}))
        received = b""
        while b'"status"' not in received[-200:]:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            received += chunk
    return len(received)


def round_of(daemon: Daemon, kinds: list, pid: int) -> tuple[int, int]:
    """Peak and settled RSS (KiB) of one round: CLIENTS never-reading clients, then their close."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
    clients = []
    for client in range(CLIENTS):
        method, path, body, headers = kinds[client % len(kinds)]
        sock = socket.create_connection(("127.0.0.1", daemon.port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        one = raw_request(method, path.format(user=client), body, headers)
        try:
            sock.send(one * PIPELINED)
        except BlockingIOError:
            pass
        clients.append(sock)
    settled_rss(pid)
    peak = status_kib(pid, "VmHWM")
    for sock in clients:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # RST: the daemon drops what it held for them at once
    return peak, settled_rss(pid)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--session-mb", type=int, default=8, help="size of each session (and of the memories)")
    parser.add_argument("--backend", default="sqlite", help="sqlite (answers made on workers) or memory")
    parser.add_argument("--page-cache", type=int, default=1 << 20, help="sqlite cache_size_bytes of each reader")
    parser.add_argument("--kinds", default="session,memories,mcp", help="comma-separated: session, memories, mcp")
    args = parser.parse_args()
    daemon = Daemon(args.backend, server=f"  output_limit: {OUTPUT_LIMIT}\n  max_body_bytes: 16MiB\n",
                    memory="  max_text_bytes: 200000\n")
    # SQLite's page caches (64 MiB a reader by default) fill as the rounds read: memory kept by design, not
    # for the clients; small ones keep them out of the measure.
    config = daemon.config_path.read_text()
    daemon.config_path.write_text(config.replace("/mnemo.db}", f"/mnemo.db, cache_size: {args.page_cache}}}"))
    daemon.start()
    failures = []
    try:
        pid = daemon.process.pid
        every = prefill(daemon, args.session_mb)
        kinds = [every[name] for name in args.kinds.split(",")]
        # Every answer once, read whole: caches warm (SQLite's pages, the index) before "before".
        answer = max(answer_size(daemon, method, path.format(user=user), body, headers)
                     for user in range(CLIENTS) for method, path, body, headers in kinds)
        before = settled_rss(pid)
        per_client_bound = 5 * (OUTPUT_LIMIT + answer) // 4 // 1024
        print(f"{args.backend}, kinds {args.kinds}; largest answer {answer / MIB:.1f} MiB; "
              f"output_limit {OUTPUT_LIMIT / MIB:.0f} MiB; RSS before {before / 1024:.0f} MiB")
        for number in range(1, args.rounds + 1):
            peak, after = round_of(daemon, kinds, pid)
            per_client = (peak - before) / CLIENTS
            print(f"round {number}: peak {peak / 1024:.0f} MiB ({per_client / 1024:.1f} MiB a client, "
                  f"{per_client * 1024 / answer:.1f} answers), after close {after / 1024:.0f} MiB "
                  f"({100 * (after - before) / before:+.0f}% of before)")
            if per_client > per_client_bound:
                failures.append(f"round {number}: {per_client / 1024:.1f} MiB a client, over "
                                f"{per_client_bound / 1024:.1f} (1.25 x (output_limit + one answer))")
            if after > before * 1.25:
                failures.append(f"round {number}: RSS {after / 1024:.0f} MiB after close, over 125% of "
                                f"{before / 1024:.0f} MiB before")
    finally:
        problem = daemon.stop()
    for line in failures + ([problem] if problem else []):
        print("FAIL:", line)
    return 1 if failures or problem else 0


if __name__ == "__main__":
    sys.exit(main())
