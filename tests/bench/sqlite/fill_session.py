#!/usr/bin/env python3
"""Fill one mnemod session with N benchmark events through the HTTP API.

For workload C's read check (a session of 100,000 events next to one of 100):
posts batches of up to 256 events of the benchmark payload (the one
../prefill.py and payload.lua use) over one keep-alive connection, creating
the session with the first batch. Standard library only.
"""
import argparse
import http.client
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from prefill import batch_body, batch_sizes  # noqa: E402  (the shared payload)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="mnemod base URL, e.g. http://127.0.0.1:7420")
    parser.add_argument("path", help="the session's path, e.g. /v1/apps/bench/users/u1/sessions/big")
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--batch", type=int, default=256, help="events per POST (at most limits.max_batch_events)")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    bodies = {}
    for size in batch_sizes(args.events, args.batch):
        body = bodies.setdefault(size, batch_body(size))
        connection.request("POST", args.path + "/events", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            print("POST %s/events answered %d: %s" % (args.path, response.status, answer[:300].decode(errors="replace")),
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
