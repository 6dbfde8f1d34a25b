#!/usr/bin/env python3
"""Pre-fill mnemod for BENCH.md workload B through the HTTP API.

Sessions u{N}/s{N} (N in 1..sessions) of app "bench" each receive `events`
events of the benchmark payload, posted in batches of up to 256 events (the
default limits.max_batch_events) over a few keep-alive connections in parallel.
Standard library only, so it runs wherever python3 does.
"""
import argparse
import http.client
import sys
import threading
import time
import urllib.parse

SENTENCE = "The quick brown fox jumps over the lazy dog while the agent keeps notes. "
TEXT_CHARS = 480  # the same text as payload.lua


def event_json():
    text = (SENTENCE * (TEXT_CHARS // len(SENTENCE) + 1))[:TEXT_CHARS]
    return '{"author":"user","role":"user","content":{"text":"%s"}}' % text


def batch_body(count):
    events = ",".join([event_json()] * count)
    return ('{"events":[%s],"create_if_missing":true}' % events).encode()


def batch_sizes(total, batch):
    sizes = [batch] * (total // batch)
    if total % batch:
        sizes.append(total % batch)
    return sizes


class Filler:
    """Posts every batch of the sessions it is given over one connection."""

    def __init__(self, host, port, events, batch):
        self.connection = http.client.HTTPConnection(host, port, timeout=60)
        self.sizes = batch_sizes(events, batch)
        self.bodies = {size: batch_body(size) for size in set(self.sizes)}
        self.failure = None

    def post(self, session):
        path = "/v1/apps/bench/users/u%d/sessions/s%d/events" % (session, session)
        for size in self.sizes:
            self.connection.request("POST", path, self.bodies[size], {"Content-Type": "application/json"})
            response = self.connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise RuntimeError("POST %s answered %d: %s" % (path, response.status, body[:300].decode(errors="replace")))

    def fill(self, sessions):
        try:
            for session in sessions:
                self.post(session)
        except Exception as error:  # reported by main(); a thread cannot raise into it
            self.failure = error


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="mnemod base URL, e.g. http://127.0.0.1:7420")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--events", type=int, default=1000, help="events per session")
    parser.add_argument("--batch", type=int, default=256, help="events per POST (at most limits.max_batch_events)")
    parser.add_argument("--connections", type=int, default=4)
    return parser.parse_args()


def main():
    args = parse_args()
    url = urllib.parse.urlsplit(args.url)
    started = time.monotonic()
    fillers = [Filler(url.hostname, url.port, args.events, args.batch) for _ in range(args.connections)]
    threads = []
    for index, filler in enumerate(fillers):
        sessions = range(1 + index, args.sessions + 1, args.connections)
        threads.append(threading.Thread(target=filler.fill, args=(sessions,)))
        threads[-1].start()
    for thread in threads:
        thread.join()
    failures = [filler.failure for filler in fillers if filler.failure]
    if failures:
        print("prefill failed: %s" % failures[0], file=sys.stderr)
        return 1
    print("prefilled %d sessions x %d events in %.1f s" % (args.sessions, args.events, time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
