#!/usr/bin/env python3
"""Print run_e.sh's results (BENCH.md workload E) as one table of medians.

Input rows (tab-separated; <build> is "new", or "previous" for
BENCH_PREVIOUS_BUILD_DIR's daemon):
  fill   <backend> <build> <events> <seconds, to a tenth>
  query  <backend> <build> word|path|questions <round> <p50_us> <p99_us> <requests_per_s> <errors>
         <requests> <answers_with_hits (questions only, else empty)>
  size   sqlite <build> data_bytes=.. words_bytes=.. trigrams_bytes=.. search_text_bytes=..
  append indexed|unindexed <round> <events_per_s> <p50_us> <p99_us> <errors>
With a previous build, each backend also gets a line of new / previous
ratios of the medians (below 1: the new build is faster); beside sqlite,
every other backend a line of its ratios to sqlite's medians of the same
build (fill rate: above 1 is faster; latencies: below 1 is faster).
"""
import argparse
import collections
import statistics

P50_TARGET_MS = 20.0   # issue 8: p50 under 20 ms for both queries; natural questions: p50 <= 20 ms
KINDS = ("word", "path", "questions")
APPEND_TARGET = 0.8    # issue 8: A within 0.8x of its figure without indexing


def read_rows(path):
    rows = collections.defaultdict(list)
    with open(path) as results:
        for line in results:
            fields = line.rstrip("\n").split("\t")
            rows[fields[0]].append(fields)
    return rows


def median(values):
    return statistics.median(values) if values else float("nan")


def query_figures(runs):
    """Medians of one backend, build and kind: p50 ms, p99 ms, req/s; errors; share of answers with hits."""
    p50 = median([int(r[5]) / 1000 for r in runs])
    p99 = median([int(r[6]) / 1000 for r in runs])
    rate = median([float(r[7]) for r in runs])
    errors = sum(int(r[8]) for r in runs)
    asked = sum(int(r[9]) for r in runs if r[10])
    found = sum(int(r[10]) for r in runs if r[10])
    return p50, p99, rate, errors, (found / asked if asked else None)


def ratios_to_sqlite(all_figures, fill_rates, backend, build):
    """One line of backend's ratios to sqlite's medians, or None without sqlite's."""
    if backend == "sqlite" or ("sqlite", build) not in fill_rates:
        return None
    parts = ["fill rate %.2fx" % (fill_rates[backend, build] / fill_rates["sqlite", build])]
    for kind in KINDS:
        mine, base = all_figures.get((backend, build, kind)), all_figures.get(("sqlite", build, kind))
        if mine and base:
            parts.append("%s p50 %.2fx p99 %.2fx" % (kind, mine[0] / base[0], mine[1] / base[1]))
    return "  / sqlite: " + ", ".join(parts)


def query_lines(rows):
    lines = []
    fills = {(r[1], r[2]): (int(r[3]), float(r[4])) for r in rows["fill"]}
    fill_rates = {key: events / seconds if seconds else float("nan") for key, (events, seconds) in fills.items()}
    builds = list(dict.fromkeys(r[2] for r in rows["query"]))
    all_figures = {}
    for backend in dict.fromkeys(r[1] for r in rows["query"]):
        figures = {}
        for build in builds:
            events, seconds = fills.get((backend, build), (0, 0))
            rate = events / seconds if seconds else float("nan")
            name = backend if len(builds) == 1 else "%s, %s build" % (backend, build)
            lines.append("%s: filled %d events in %.1f s (%.0f events/s)" % (name, events, seconds, rate))
            for kind in KINDS:
                runs = [r for r in rows["query"] if r[1] == backend and r[2] == build and r[3] == kind]
                if not runs:
                    continue
                if not any(int(r[9]) for r in runs):  # wrk counts no request still in flight at the end
                    lines.append("  %-9s no answer within any run: each took longer (time one with curl)" % kind)
                    continue
                p50, p99, rate, errors, hits = figures[build, kind] = query_figures(runs)
                all_figures[backend, build, kind] = figures[build, kind]
                met = p50 <= P50_TARGET_MS if kind == "questions" else p50 < P50_TARGET_MS
                target = "p50 %s %g ms: %s" % ("<=" if kind == "questions" else "<", P50_TARGET_MS,
                                               "ok" if met else "MISSES")
                if hits is not None:
                    target += "; answers with hits %.0f%%" % (100 * hits)
                lines.append("  %-9s p50 %8.2f ms  p99 %8.2f ms  %7.0f req/s  errors %d  (%s)"
                             % (kind, p50, p99, rate, errors, target))
            ratio_line = ratios_to_sqlite(all_figures, fill_rates, backend, build)
            if ratio_line:
                lines.append(ratio_line)
        if "previous" in builds and "new" in builds:
            ratios = []
            for kind in KINDS:
                new, old = figures.get(("new", kind)), figures.get(("previous", kind))
                if new and old:
                    ratios.append("%s p50 %.2fx p99 %.2fx" % (kind, new[0] / old[0], new[1] / old[1]))
            lines.append("  new / previous: " + ", ".join(ratios))
    return lines


def size_lines(rows):
    lines = []
    builds = list(dict.fromkeys(r[2] for r in rows["size"]))
    for r in rows["size"]:
        fields = dict(item.split("=") for item in r[3].split())
        data, words, trigrams = (int(fields[k]) for k in ("data_bytes", "words_bytes", "trigrams_bytes"))
        text = int(fields["search_text_bytes"])
        mib = 1024 * 1024
        name = "sqlite" if len(builds) == 1 else "sqlite, %s build," % r[2]
        lines.append(name + " size: data %.1f MiB (events.search_text %.1f MiB of it), index %.1f MiB "
                     "(words %.1f + trigrams %.1f) = %.2fx the data"
                     % (data / mib, text / mib, (words + trigrams) / mib, words / mib, trigrams / mib,
                        (words + trigrams) / data))
    return lines


def append_lines(rows, seconds, connections):
    if not rows["append"]:
        return []
    rate = {k: median([float(r[3]) for r in rows["append"] if r[1] == k]) for k in ("indexed", "unindexed")}
    p99 = {k: median([int(r[5]) / 1000 for r in rows["append"] if r[1] == k]) for k in ("indexed", "unindexed")}
    errors = sum(int(r[6]) for r in rows["append"])
    ratio = rate["indexed"] / rate["unindexed"]
    verdict = "ok" if ratio >= APPEND_TARGET else "MISSES"
    return ["workload A on sqlite (%d s runs, %d connections): with index %.0f events/s (p99 %.1f ms), "
            "unindexed %.0f events/s (p99 %.1f ms): ratio %.2f (target >= %.1f: %s), errors %d"
            % (seconds, connections, rate["indexed"], p99["indexed"], rate["unindexed"], p99["unindexed"], ratio,
               APPEND_TARGET, verdict, errors)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--append-seconds", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    args = parser.parse_args()
    rows = read_rows(args.results)
    print("Workload E: search over %d events, limit=10&context=1, 1 connection, %d s per run, medians of rounds"
          % (args.events, args.seconds))
    for line in query_lines(rows) + size_lines(rows) + append_lines(rows, args.append_seconds, args.connections):
        print(line)


if __name__ == "__main__":
    main()
