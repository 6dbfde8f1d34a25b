#!/usr/bin/env python3
"""Prints workload D's table from run_d.sh's results.tsv: per expired share,
medians of the sweep time, the longest loop stall with and without a sweep,
and workload A's p99 during the sweep against the same run without one."""
import argparse
import statistics
from collections import defaultdict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--sessions", type=int, required=True)
    parser.add_argument("--budget", required=True)
    args = parser.parse_args()
    rows = defaultdict(lambda: defaultdict(list))
    expired_of = {}
    for line in open(args.results):
        share, expired, mode, _round, ms, stall, p99, rps = line.rstrip("\n").split("\t")
        expired_of[share] = int(expired)
        cell = rows[share][mode]
        cell.append((float(ms), float(stall) * 1000, float(p99) / 1000, float(rps)))

    def med(values, index):
        return statistics.median(v[index] for v in values)

    print(f"Workload D: {args.sessions:,} sqlite sessions, sweep.budget {args.budget}; medians")
    print("| expired | sweep ms | ms per 1k expired | max loop stall ms (sweep / none) "
          "| A p99 ms (sweep / none) | p99 ratio | A req/s (sweep / none) |")
    print("|---|---|---|---|---|---|---|")
    for share in sorted(rows, key=float):
        sweep, quiet = rows[share]["sweep"], rows[share]["quiet"]
        expired = expired_of[share]
        ms = med(sweep, 0)
        p99s, p99q = med(sweep, 2), med(quiet, 2)
        print(f"| {expired:,} ({float(share) * 100:g}%) | {ms:.0f} | {ms / max(expired, 1) * 1000:.1f} "
              f"| {med(sweep, 1):.1f} / {med(quiet, 1):.1f} | {p99s:.1f} / {p99q:.1f} | {p99s / p99q:.2f} "
              f"| {med(sweep, 3):,.0f} / {med(quiet, 3):,.0f} |")


if __name__ == "__main__":
    main()
