#!/usr/bin/env python3
"""Turn search indexing off in a stopped mnemod sqlite database.

For workload E's indexing cost: drops the triggers that queue the events
table's deletes and updates for the FTS5 indexes (migrations v6 and v8 of
plugins/sqlite), so that, written by mnemo_sqlite_unindexed.so (whose
inserts skip the search backlog), the database stores events (and their
search_text column) without indexing them: the queue stays empty and the
writer's pre-commit flush finds nothing. The database is for benchmarking
only afterwards. Standard library only.
"""
import sqlite3
import sys

TRIGGERS = ["events_search_delete", "events_search_hide", "events_search_show"]


def main():
    db = sqlite3.connect(sys.argv[1])
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    missing = [t for t in TRIGGERS if t not in present]
    if missing:
        print("triggers not found in %s: %s (has the sqlite schema changed?)" % (sys.argv[1], ", ".join(missing)),
              file=sys.stderr)
        return 1
    for trigger in TRIGGERS:
        db.execute("DROP TRIGGER %s" % trigger)
    db.commit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
