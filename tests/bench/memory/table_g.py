#!/usr/bin/env python3
"""Print run_g.sh's results (BENCH.md workload G) as one table per backend.

Input rows (tab-separated): <backend> <build> <key=value ...>, the build
"new" (BENCH_BUILD_DIR) or "previous" (BENCH_PREVIOUS_BUILD_DIR), the
fields those of mnemo_bench_memory_api's "G phase=.." lines (phase=load,
catchup, recall with kind=user_hybrid|app_semantic|user_keyword|app_keyword,
once per round) and of run_g.sh's own (phase=rss, phase=restart). Each
figure is the median of its rounds (failed recalls: the sum). One column per build and,
with both, a new / previous ratio (below 1: the new build is faster or
smaller). Then the issue's targets for the new build: keyword recall p50 <=
5 ms per user and <= 20 ms app-wide, and per-user hybrid p50 no worse than
the previous build's.
"""
import argparse
import collections
import statistics

USER_KEYWORD_TARGET_MS = 5.0
APP_KEYWORD_TARGET_MS = 20.0

# (label, (phase, kind), field, format, ratio?)
ROWS = [
    ("load, memories/s", ("load", None), "rate", "%.0f", True),
    ("catch-up after the load, s", ("catchup", None), "seconds", "%.1f", True),
    ("per-user hybrid p50 ms", ("recall", "user_hybrid"), "p50_ms", "%.2f", True),
    ("per-user hybrid p99 ms", ("recall", "user_hybrid"), "p99_ms", "%.2f", True),
    ("app-wide semantic p50 ms", ("recall", "app_semantic"), "p50_ms", "%.2f", True),
    ("app-wide semantic p99 ms", ("recall", "app_semantic"), "p99_ms", "%.2f", True),
    ("app-wide semantic recall@10", ("recall", "app_semantic"), "recall10", "%.3f", False),
    ("per-user keyword p50 ms", ("recall", "user_keyword"), "p50_ms", "%.2f", True),
    ("per-user keyword p99 ms", ("recall", "user_keyword"), "p99_ms", "%.2f", True),
    ("per-user keyword answers with a memory", ("recall", "user_keyword"), "found", "%.2f", False),
    ("app-wide keyword p50 ms", ("recall", "app_keyword"), "p50_ms", "%.2f", True),
    ("app-wide keyword p99 ms", ("recall", "app_keyword"), "p99_ms", "%.2f", True),
    ("app-wide keyword answers with a memory", ("recall", "app_keyword"), "found", "%.2f", False),
    ("failed recalls", ("recall", None), "failed", "%d", False),
    ("peak RSS, bytes per memory", ("rss", None), "bytes_per_memory", "%.0f", True),
    ("restart to first recall, s", ("restart", None), "seconds", "%.2f", True),
]


def read_results(path):
    """{(backend, build): {(phase, kind): {field: median}}}; failed recalls summed under (recall, None)."""
    runs = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    failed = collections.defaultdict(float)
    with open(path) as lines:
        for line in lines:
            backend, build, rest = line.rstrip("\n").split("\t", 2)
            fields = dict(item.split("=", 1) for item in rest.split())
            phase, kind = fields.pop("phase"), fields.pop("kind", None)
            for field, text in fields.items():
                runs[backend, build][phase, kind][field].append(float(text))
            if phase == "recall":
                failed[backend, build] += float(fields.get("failed", 0))
    results = {}
    for key, phases in runs.items():
        results[key] = {phase: {field: statistics.median(values) for field, values in fields.items()}
                        for phase, fields in phases.items()}
        if key in failed:
            results[key]["recall", None] = {"failed": failed[key]}
    return results


def value(figures, key, field):
    return figures.get(key, {}).get(field)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--memories", type=int, required=True)
    parser.add_argument("--queries", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    results = read_results(args.results)
    print("Workload G: %d memories, 1000 users, 384-dim client vectors; %d recalls of each kind, %d at once, "
          "medians of %d round%s; questions from search/questions.txt"
          % (args.memories, args.queries, args.connections, args.rounds, "" if args.rounds == 1 else "s"))
    verdicts = []
    for backend in dict.fromkeys(b for b, _ in results):
        builds = [b for b in ("previous", "new") if (backend, b) in results]
        both = len(builds) == 2
        header = "%-42s" % backend + "".join("%12s" % b for b in builds) + ("%16s" % "new / previous" if both else "")
        print()
        print(header)
        for label, key, field, form, ratio in ROWS:
            cells = [value(results[backend, b], key, field) for b in builds]
            if all(c is None for c in cells):
                continue
            line = "  %-40s" % label + "".join("%12s" % ("-" if c is None else form % c) for c in cells)
            if both and ratio and None not in cells and cells[0]:
                line += "%15.2fx" % (cells[1] / cells[0])
            print(line)
        new = results.get((backend, "new"), {})
        checks = []
        user = value(new, ("recall", "user_keyword"), "p50_ms")
        app = value(new, ("recall", "app_keyword"), "p50_ms")
        if user is not None:
            checks.append("per-user keyword p50 <= %g ms: %s" % (USER_KEYWORD_TARGET_MS,
                                                                 "ok" if user <= USER_KEYWORD_TARGET_MS else "MISSES"))
        if app is not None:
            checks.append("app-wide keyword p50 <= %g ms: %s" % (APP_KEYWORD_TARGET_MS,
                                                                 "ok" if app <= APP_KEYWORD_TARGET_MS else "MISSES"))
        if both:
            old_hybrid = value(results[backend, "previous"], ("recall", "user_hybrid"), "p50_ms")
            new_hybrid = value(new, ("recall", "user_hybrid"), "p50_ms")
            if old_hybrid and new_hybrid is not None:
                checks.append("per-user hybrid p50 no worse than the previous build: %s (%.2fx)"
                              % ("ok" if new_hybrid <= old_hybrid else "MISSES", new_hybrid / old_hybrid))
        if checks:
            verdicts.append("%s, new build: %s" % (backend, "; ".join(checks)))
    if verdicts:
        print()
        for line in verdicts:
            print(line)


if __name__ == "__main__":
    main()
