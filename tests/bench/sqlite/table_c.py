#!/usr/bin/env python3
"""Print run_c.sh's results (BENCH.md workload C) as one table of medians.

Input rows (tab-separated), one per measured run:
  write <phase> mnemod|raw-index|raw-plain <round> <events_per_s> <p50_us> <p99_us> <errors>
  read  big|small <round> <p50_us> <p99_us> <requests_per_s> <errors>
  size  mnemod|raw-index-64|raw-plain-1|... <bytes_per_1000_events>
The phases are normal, full and full+<N>us (full on a disk whose flush takes
N µs more). The reference is raw-index: the same rows mnemod writes, search
index included; raw-plain (no search index) is context.
"""
import argparse
import collections
import statistics

TARGETS = {"normal": 0.5, "full": 3.0}  # by synchronous setting
BATCH = {"normal": 64, "full": 1}


def read_rows(path):
    rows = collections.defaultdict(list)
    with open(path) as results:
        for line in results:
            fields = line.rstrip("\n").split("\t")
            key = tuple(fields[:3]) if fields[0] == "write" else tuple(fields[:2])
            rows[key].append(fields)
    return rows


def median_of(runs, column, cast=float):
    return statistics.median(cast(run[column]) for run in runs)


def ratio(numerator, denominator):
    return numerator / denominator if denominator else float("nan")


def write_table(rows):
    print("| phase | mnemod events/s (wrk A) | mnemod p50 / p99 ms | errors | reference | reference events/s"
          " | ratio | target | raw without search index events/s | ratio to it |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    phases = sorted({key[1] for key in rows if key[0] == "write"}, key=lambda p: (len(p), p))
    for phase in phases:
        sync = phase.split("+")[0]
        mnemod, raw = rows.get(("write", phase, "mnemod")), rows.get(("write", phase, "raw-index"))
        if not mnemod or not raw:
            continue
        mnemod_rate, raw_rate = median_of(mnemod, 4), median_of(raw, 4)
        plain = rows.get(("write", phase, "raw-plain"))
        plain_rate = median_of(plain, 4) if plain else None
        target = TARGETS[sync]
        verdict = "met" if ratio(mnemod_rate, raw_rate) >= target else "missed"
        print("| %s | %.0f | %.2f / %.2f | %d | raw %d/txn, %s, same rows | %.0f | %.2f | >= %.1f (%s) | %s | %s |" % (
            phase, mnemod_rate, median_of(mnemod, 5) / 1000, median_of(mnemod, 6) / 1000,
            sum(int(run[7]) for run in mnemod), BATCH[sync], sync, raw_rate, ratio(mnemod_rate, raw_rate), target,
            verdict, "%.0f" % plain_rate if plain_rate else "-",
            "%.2f" % ratio(mnemod_rate, plain_rate) if plain_rate else "-"))


def read_table(rows, events):
    big, small = rows.get(("read", "big")), rows.get(("read", "small"))
    if not big or not small:
        return
    big_p50, small_p50 = median_of(big, 3), median_of(small, 3)
    print()
    print("| read newest 50 events | p50 ms | p99 ms | req/s | errors |")
    print("|---|---|---|---|---|")
    for name, runs in (("session of %d events" % events, big), ("session of 100 events", small)):
        print("| %s | %.3f | %.3f | %.0f | %d |" % (
            name, median_of(runs, 3) / 1000, median_of(runs, 4) / 1000, median_of(runs, 5),
            sum(int(run[6]) for run in runs)))
    print("| p50 ratio long / short | %.2f | | | |" % (big_p50 / small_p50 if small_p50 else float("nan")))


def size_table(rows):
    sizes = [(key[1], float(runs[-1][2])) for key, runs in rows.items() if key[0] == "size"]
    if not sizes:
        return
    print()
    print("| database size per 1,000 events of 500 B | KiB |")
    print("|---|---|")
    for system, size in sorted(sizes):
        print("| %s | %.0f |" % (system, size / 1024))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--read-events", type=int, required=True)
    args = parser.parse_args()
    rows = read_rows(args.results)
    print("Workload C: mnemod on sqlite vs raw SQLite; medians of each run's figure, %d s runs, %d connections"
          % (args.seconds, args.connections))
    print()
    write_table(rows)
    read_table(rows, args.read_events)
    size_table(rows)


if __name__ == "__main__":
    main()
