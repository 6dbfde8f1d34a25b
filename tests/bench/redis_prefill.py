#!/usr/bin/env python3
"""Write the Redis protocol that fills the reference lists of BENCH.md workload B.

Prints RPUSH commands for `redis-cli --pipe`: lists key:000000000000 ..
key:{sessions-1} (the names redis-benchmark gives key:__rand_int__ with
-r sessions), each holding `items` values of 500 bytes.
"""
import argparse
import sys

VALUE = b"v" * 500
PUSHES_PER_COMMAND = 100  # keeps each command small for the pipe


def resp_command(*parts):
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--items", type=int, default=1000)
    args = parser.parse_args()
    out = sys.stdout.buffer
    for index in range(args.sessions):
        key = b"key:%012d" % index
        remaining = args.items
        while remaining:
            count = min(remaining, PUSHES_PER_COMMAND)
            out.write(resp_command(b"RPUSH", key, *([VALUE] * count)))
            remaining -= count
    return 0


if __name__ == "__main__":
    sys.exit(main())
