#!/usr/bin/env python3
"""Bytes of a stopped mnemod sqlite database: the search index versus the rest.

Reads SQLite's dbstat table (page bytes per table and index). The search
index is every table of the FTS5 indexes events_words and events_trigrams
(their _data, _idx, _config and _docsize shadow tables); the data is every
other table and index, events.search_text included. Prints one line:
  data_bytes=.. words_bytes=.. trigrams_bytes=.. search_text_bytes=..
search_text_bytes is the sum of the column's lengths (part of data_bytes).
Standard library only.
"""
import sqlite3
import sys


def main():
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    sizes = {"data": 0, "words": 0, "trigrams": 0}
    for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
        part = "data"
        for index in ("words", "trigrams"):
            if name.startswith("events_" + index):
                part = index
        sizes[part] += size
    text = db.execute("SELECT COALESCE(SUM(LENGTH(CAST(search_text AS BLOB))), 0) FROM events").fetchone()[0]
    print("data_bytes=%d words_bytes=%d trigrams_bytes=%d search_text_bytes=%d"
          % (sizes["data"], sizes["words"], sizes["trigrams"], text))


if __name__ == "__main__":
    main()
