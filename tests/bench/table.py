#!/usr/bin/env python3
"""Print run.sh's results as one table: per workload and system, the median
over rounds of requests/s and of each latency percentile (each median taken on
its own), the server's CPU time per request, the errors summed over rounds,
the largest peak RSS seen, and the mnemod/redis ratios of the medians
(requests/s, p99 and CPU per request)."""
import argparse
import collections
import statistics
import sys

WORKLOADS = {
    "A": "append 1 event (500 B) to 1 of 1,000 sessions",
    "B": "read newest 50 of 1,000 events",
}


def read_rows(path):
    runs = collections.defaultdict(list)
    with open(path) as results:
        for line in results:
            workload, system, _round, rps, p50, p99, p999, errors, rss, cpu_us = line.split("\t")
            runs[(workload, system)].append(
                {"rps": float(rps), "p50": int(p50), "p99": int(p99), "p999": int(p999),
                 "errors": int(errors), "rss": int(rss), "cpu_us": float(cpu_us)})
    return runs


def medians(rounds):
    row = {key: statistics.median(r[key] for r in rounds) for key in ("rps", "p50", "p99", "p999", "cpu_us")}
    row["errors"] = sum(r["errors"] for r in rounds)
    row["rss"] = max(r["rss"] for r in rounds)
    row["rounds"] = len(rounds)
    return row


def ms(microseconds):
    return "%.3f" % (microseconds / 1000)


def print_table(runs, args):
    header = ("workload", "system", "req/s", "p50 ms", "p99 ms", "p99.9 ms", "errors", "peak RSS MiB",
              "CPU us/req", "req/s ratio", "p99 ratio", "CPU ratio")
    lines = [header]
    for workload in sorted({w for w, _ in runs}):
        redis = medians(runs[(workload, "redis")]) if (workload, "redis") in runs else None
        for system in ("redis", "mnemod"):
            if (workload, system) not in runs:
                continue
            row = medians(runs[(workload, system)])
            ratios = ("", "", "")
            if system == "mnemod" and redis:
                ratios = ("%.2f" % (row["rps"] / redis["rps"]), "%.2f" % (row["p99"] / max(redis["p99"], 1)),
                          "%.2f" % (row["cpu_us"] / max(redis["cpu_us"], 0.1)))
            lines.append((workload, system, "%.0f" % row["rps"], ms(row["p50"]), ms(row["p99"]),
                          ms(row["p999"]), str(row["errors"]), "%.1f" % (row["rss"] / 1024),
                          "%.1f" % row["cpu_us"]) + ratios)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--read-sessions", type=int, required=True)
    parser.add_argument("--storage", default="memory backend vs redis-server",
                        help="what the header says was compared")
    args = parser.parse_args()
    runs = read_rows(args.results)
    rounds = max(len(r) for r in runs.values())
    print("\nmnemod (%s), %d connections, ~%d s per run, median of %d rounds"
          % (args.storage, args.connections, args.seconds, rounds))
    print("A: %s" % WORKLOADS["A"])
    print("B: %s; %d sessions pre-filled (N in 1..%d)" % (WORKLOADS["B"], args.read_sessions, args.read_sessions))
    print("ratios are mnemod/redis: req/s above 1 is faster; p99 and CPU per request below 1 are better")
    print("CPU us/req: the server process's user+system CPU time during the run / requests served\n")
    print_table(runs, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
