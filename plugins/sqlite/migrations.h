// migrations.h -- the sqlite backend's schema history: an ordered list of
// SQL steps, each applied once in its own transaction and recorded in
// schema_version. A shipped step is never edited; a change is a new step at
// the end. Header-only so the unit tests can build old databases from the
// exact SQL the plugin once ran.
#pragma once

#include "word_separators.h"

#include <array>

namespace mnemo::sqlite {

struct Migration {
    int version;
    const char* sql;
};

// v1: sessions and everything that hangs off them.
//  - sessions.sid is the internal key every child row refers to; (app, user,
//    id) is the public one. state_bytes is the session scope's size, kept
//    current so max_state_bytes costs no scan.
//  - events: visible rows (deleted_at = 0) have their own partial indexes so
//    reading the newest N, evicting the oldest and client-id lookups never
//    touch soft-deleted rows; a client id is unique among visible events only.
//    events_deleted lets a purge sweep find old soft-deleted (rewound,
//    replaced) rows without scanning.
//  - app and user scopes have a row in state_scopes holding their TTL and size.
inline constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE sessions (
  sid INTEGER PRIMARY KEY,
  app TEXT NOT NULL,
  user TEXT NOT NULL,
  id TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  parent_id TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL DEFAULT 0,
  ttl_us INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  event_count INTEGER NOT NULL DEFAULT 0,
  last_seq INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  state_bytes INTEGER NOT NULL DEFAULT 0,
  deleted_at INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX sessions_key ON sessions (app, user, id);
CREATE INDEX sessions_user_updated ON sessions (app, user, updated_at, id);
CREATE INDEX sessions_app_updated ON sessions (app, updated_at, id);
CREATE INDEX sessions_expiry ON sessions (expires_at) WHERE expires_at > 0;
CREATE INDEX sessions_deleted ON sessions (deleted_at) WHERE deleted_at > 0;

CREATE TABLE events (
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  id_from_client INTEGER NOT NULL DEFAULT 0,
  invocation_id TEXT,
  author TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT,
  state_delta TEXT,
  usage TEXT,
  tool_calls TEXT,
  media TEXT,
  metadata TEXT,
  filter_key TEXT NOT NULL DEFAULT '',
  timestamp_us INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  deleted_at INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (sid, seq)
);
CREATE INDEX events_visible ON events (sid, seq) WHERE deleted_at = 0;
CREATE UNIQUE INDEX events_client_id ON events (sid, id) WHERE deleted_at = 0;
CREATE INDEX events_deleted ON events (deleted_at) WHERE deleted_at > 0;

CREATE TABLE session_state (
  sid INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (sid, key)
) WITHOUT ROWID;

CREATE TABLE app_state (
  app TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (app, key)
) WITHOUT ROWID;

CREATE TABLE user_state (
  app TEXT NOT NULL,
  user TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (app, user, key)
) WITHOUT ROWID;

CREATE TABLE state_scopes (
  scope INTEGER NOT NULL,
  app TEXT NOT NULL,
  user TEXT NOT NULL,
  expires_at INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, app, user)
) WITHOUT ROWID;
CREATE INDEX state_scopes_expiry ON state_scopes (expires_at) WHERE expires_at > 0;

CREATE TABLE summaries (
  sid INTEGER NOT NULL,
  filter_key TEXT NOT NULL,
  up_to_seq INTEGER NOT NULL,
  from_seq INTEGER NOT NULL,
  events_covered INTEGER NOT NULL,
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (sid, filter_key, up_to_seq)
) WITHOUT ROWID;

CREATE TABLE track_events (
  sid INTEGER NOT NULL,
  track TEXT NOT NULL,
  seq INTEGER NOT NULL,
  payload TEXT,
  timestamp_us INTEGER NOT NULL,
  PRIMARY KEY (sid, track, seq)
) WITHOUT ROWID;
)sql";

// v2: lanes, with the columns of docs/api.md's Lane object plus a compare-and-set
// version and the restart counter recovery.stuck_after_restarts needs.
inline constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE lanes (
  app TEXT NOT NULL,
  lane TEXT NOT NULL,
  session_id TEXT NOT NULL,
  user TEXT NOT NULL,
  platform TEXT,
  chat_type TEXT,
  updated_at INTEGER NOT NULL,
  suspended INTEGER NOT NULL DEFAULT 0,
  resume_pending INTEGER NOT NULL DEFAULT 0,
  resume_reason TEXT,
  was_auto_reset INTEGER NOT NULL DEFAULT 0,
  auto_reset_reason TEXT,
  reset_had_activity INTEGER NOT NULL DEFAULT 0,
  is_fresh_reset INTEGER NOT NULL DEFAULT 0,
  pending_restarts INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (app, lane)
) WITHOUT ROWID;
CREATE INDEX lanes_app_updated ON lanes (app, updated_at, lane);
CREATE INDEX lanes_user ON lanes (app, user);
)sql";

// v3: session lifecycle and lane bookkeeping.
//  - sessions get their finalize mark: reason (enum mnemo_finalize_reason, 0:
//    never marked), when it was marked, failed attempts, and when finalize
//    ended (0: pending). Rows soft-deleted before v3 carry reason 0, so they
//    need no finalize and stay purgeable.
//  - lanes get created_at (the ABI's mnemo_lane has it); existing lanes take
//    their updated_at.
//  - partial indexes give every sweep part and the finalize list an index
//    range of exactly the rows it wants: live sessions by expiry (replacing
//    sessions_expiry, whose range kept every swept row until its purge),
//    purgeable soft-deleted sessions by deleted_at, pending finalizes by mark
//    time, and lanes by updated_at for pruning across apps.
inline constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE sessions ADD COLUMN finalize_reason INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN finalize_marked_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN finalize_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN finalized_at INTEGER NOT NULL DEFAULT 0;
DROP INDEX sessions_expiry;
CREATE INDEX sessions_live_expiry ON sessions (expires_at) WHERE expires_at > 0 AND deleted_at = 0;
CREATE INDEX sessions_purgeable ON sessions (deleted_at)
  WHERE deleted_at > 0 AND (finalize_reason = 0 OR finalized_at > 0);
CREATE INDEX sessions_finalize_pending ON sessions (finalize_marked_at)
  WHERE finalize_reason > 0 AND finalized_at = 0;

ALTER TABLE lanes ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
UPDATE lanes SET created_at = updated_at;
CREATE INDEX lanes_updated ON lanes (updated_at);
)sql";

// v4: search (docs/api.md "Search", core/search.h).
//  - events.search_text: mnemod's core::search_text() of the event, written
//    by every insert. Rows from before v4 get it computed here from their
//    JSON (content strings, tool call name / argument strings /
//    result_summary, media paths; pieces joined by newlines).
//  - Two external-content FTS5 indexes over it, holding exactly the visible
//    events (deleted_at = 0): events_words (unicode61, diacritics removed:
//    word queries, bm25) and events_trigrams (exact queries, verified
//    against the text). Triggers keep them in step with the events table in
//    the same transaction, whatever path inserts, deletes (eviction, purges)
//    or soft-deletes (rewind, rewrite) a row. A REPLACE that deletes a row
//    fires no delete trigger (recursive_triggers is off): delete, then insert.
//  - Sessions that are soft-deleted or expired keep their rows indexed until
//    purged; search joins sessions and skips them.
inline constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE events ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
UPDATE events SET search_text = ltrim(
  coalesce(char(10) || (SELECT group_concat(t.value, char(10)) FROM json_tree(events.content) t
                        WHERE t.type = 'text' AND t.value <> ''), '') ||
  coalesce(char(10) || (SELECT group_concat(v, char(10)) FROM (
              SELECT t.value AS v FROM json_each(events.tool_calls) c, json_tree(c.value) t
              WHERE c.type = 'object' AND t.type = 'text' AND t.value <> '' AND
                    ((t.path = '$' AND t.key IN ('name', 'result_summary')) OR t.fullkey = '$.arguments' OR
                     t.fullkey LIKE '$.arguments.%' OR t.fullkey LIKE '$.arguments[%')
              ORDER BY c.key, CASE WHEN t.key = 'name' AND t.path = '$' THEN 0
                                   WHEN t.key = 'result_summary' AND t.path = '$' THEN 2 ELSE 1 END, t.id)), '') ||
  coalesce(char(10) || (SELECT group_concat(json_extract(m.value, '$.path'), char(10)) FROM json_each(events.media) m
                        WHERE m.type = 'object' AND json_type(m.value, '$.path') = 'text'
                          AND json_extract(m.value, '$.path') <> ''), ''),
  char(10))
WHERE content IS NOT NULL OR tool_calls IS NOT NULL OR media IS NOT NULL;

CREATE VIRTUAL TABLE events_words USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE events_trigrams USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = 'trigram');
INSERT INTO events_words (rowid, search_text)
  SELECT rowid, search_text FROM events WHERE deleted_at = 0 AND search_text <> '';
INSERT INTO events_trigrams (rowid, search_text)
  SELECT rowid, search_text FROM events WHERE deleted_at = 0 AND search_text <> '';

CREATE TRIGGER events_search_insert AFTER INSERT ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' BEGIN
  INSERT INTO events_words (rowid, search_text) VALUES (new.rowid, new.search_text);
  INSERT INTO events_trigrams (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER events_search_delete AFTER DELETE ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' BEGIN
  INSERT INTO events_words (events_words, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO events_trigrams (events_trigrams, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_search_hide AFTER UPDATE OF deleted_at, search_text ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND (new.deleted_at <> 0 OR new.search_text <> old.search_text) BEGIN
  INSERT INTO events_words (events_words, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO events_trigrams (events_trigrams, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_search_show AFTER UPDATE OF deleted_at, search_text ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND (old.deleted_at <> 0 OR new.search_text <> old.search_text) BEGIN
  INSERT INTO events_words (rowid, search_text) VALUES (new.rowid, new.search_text);
  INSERT INTO events_trigrams (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
)sql";

// v5: a leaner search index (core/search.h's rules are unchanged).
//  - events_words is rebuilt with word_separators.h as separators, so its
//    tokens never span a word boundary of search_words: an exact query's
//    words (but the first, which may end a longer word) are then an FTS5
//    phrase every event holding the query matches, and the trigrams are not
//    needed for them.
//  - events.search_trigrams: 1 when the search text holds a CJK character
//    (written by insert_event, the host's has_cjk). CJK runs are
//    one word without spaces, so a CJK query is a substring of a word:
//    events_trigrams holds these events only, and events_trigram_rows lists
//    them for queries of fewer than 3 characters. Rows from before v5 take 1
//    when their text holds any non-ASCII character (a superset: candidates
//    are verified).
//  - The triggers are replaced: the words triggers as in v4, the trigram
//    ones only for flagged rows.
inline constexpr const char* kSchemaV5 = R"sql(
DROP TRIGGER events_search_insert;
DROP TRIGGER events_search_delete;
DROP TRIGGER events_search_hide;
DROP TRIGGER events_search_show;
DROP TABLE events_words;
DROP TABLE events_trigrams;

ALTER TABLE events ADD COLUMN search_trigrams INTEGER NOT NULL DEFAULT 0;
UPDATE events SET search_trigrams = 1 WHERE length(search_text) <> length(CAST(search_text AS BLOB));
CREATE INDEX events_trigram_rows ON events (sid, seq) WHERE search_trigrams = 1 AND deleted_at = 0;

CREATE VIRTUAL TABLE events_words USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = "unicode61 remove_diacritics 2 separators ')sql" MNEMO_SQLITE_WORD_SEPARATORS_V5 R"sql('");
CREATE VIRTUAL TABLE events_trigrams USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = 'trigram');
INSERT INTO events_words (rowid, search_text)
  SELECT rowid, search_text FROM events WHERE deleted_at = 0 AND search_text <> '';
INSERT INTO events_trigrams (rowid, search_text)
  SELECT rowid, search_text FROM events WHERE deleted_at = 0 AND search_text <> '' AND search_trigrams = 1;

CREATE TRIGGER events_search_insert AFTER INSERT ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' BEGIN
  INSERT INTO events_words (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER events_search_delete AFTER DELETE ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' BEGIN
  INSERT INTO events_words (events_words, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_search_hide AFTER UPDATE OF deleted_at, search_text ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND (new.deleted_at <> 0 OR new.search_text <> old.search_text) BEGIN
  INSERT INTO events_words (events_words, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_search_show AFTER UPDATE OF deleted_at, search_text ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND (old.deleted_at <> 0 OR new.search_text <> old.search_text) BEGIN
  INSERT INTO events_words (rowid, search_text) VALUES (new.rowid, new.search_text);
END;

CREATE TRIGGER events_trigram_insert AFTER INSERT ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND new.search_trigrams = 1 BEGIN
  INSERT INTO events_trigrams (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER events_trigram_delete AFTER DELETE ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND old.search_trigrams = 1 BEGIN
  INSERT INTO events_trigrams (events_trigrams, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_trigram_hide AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND old.search_trigrams = 1 AND (new.deleted_at <> 0 OR
  new.search_text <> old.search_text OR new.search_trigrams <> 1) BEGIN
  INSERT INTO events_trigrams (events_trigrams, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER events_trigram_show AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND new.search_trigrams = 1 AND (old.deleted_at <> 0 OR
  new.search_text <> old.search_text OR old.search_trigrams <> 1) BEGIN
  INSERT INTO events_trigrams (rowid, search_text) VALUES (new.rowid, new.search_text);
END;
)sql";

// v6: the search indexes are written once per write transaction, not once
// per event. FTS5 flushes its pending terms into a new index segment at every
// savepoint, and every statement inside a larger transaction is one (a
// statement journal), so v5's triggers, writing the FTS5 tables directly,
// made one segment per event and flushed it again at each later statement:
// the index cost more than the events themselves. The triggers now only note
// the change in search_queue (same conditions as v5: `words` and `trigrams`
// say which index takes part); the writer moves the queue into both indexes,
// in order, just before COMMIT (search_queue.h). Readers never see a queued
// row: the queue is empty at every commit.
inline constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE search_queue (
  qid INTEGER PRIMARY KEY,
  doc INTEGER NOT NULL,
  added INTEGER NOT NULL,
  words INTEGER NOT NULL,
  trigrams INTEGER NOT NULL,
  search_text TEXT NOT NULL
);
DROP TRIGGER events_search_insert;
DROP TRIGGER events_search_delete;
DROP TRIGGER events_search_hide;
DROP TRIGGER events_search_show;
DROP TRIGGER events_trigram_insert;
DROP TRIGGER events_trigram_delete;
DROP TRIGGER events_trigram_hide;
DROP TRIGGER events_trigram_show;
CREATE TRIGGER events_search_insert AFTER INSERT ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (new.rowid, 1, 1, new.search_trigrams = 1, new.search_text);
END;
CREATE TRIGGER events_search_delete AFTER DELETE ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (old.rowid, 0, 1, old.search_trigrams = 1, old.search_text);
END;
CREATE TRIGGER events_search_hide AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND (new.deleted_at <> 0 OR new.search_text <> old.search_text OR
  (old.search_trigrams = 1 AND new.search_trigrams <> 1)) BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (old.rowid, 0, new.deleted_at <> 0 OR new.search_text <> old.search_text, old.search_trigrams = 1,
          old.search_text);
END;
CREATE TRIGGER events_search_show AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND (old.deleted_at <> 0 OR new.search_text <> old.search_text OR
  (new.search_trigrams = 1 AND old.search_trigrams <> 1)) BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (new.rowid, 1, old.deleted_at <> 0 OR new.search_text <> old.search_text, new.search_trigrams = 1,
          new.search_text);
END;
)sql";

// v7: events_client_id holds client-given ids only. docs/api.md makes a client id
// unique within its session; a generated id (UUIDv7) is unique by how it is
// made, so indexing it bought nothing and cost every append a write to a
// random page of a wide index (one (sid, 36-byte id) entry per event): 23%
// of workload A's throughput. Client-id look-ups say id_from_client = 1 so
// they use the index. A client id equal to an event's generated id is no
// longer refused; the memory backend never refused it either.
inline constexpr const char* kSchemaV7 = R"sql(
DROP INDEX events_client_id;
CREATE UNIQUE INDEX events_client_id ON events (sid, id) WHERE deleted_at = 0 AND id_from_client = 1;
)sql";

// v8: an inserted event reaches the search indexes from the writer, not
// from a trigger: insert_event() hands its row to the connection's
// SearchBacklog, which the writer moves into both indexes before COMMIT,
// ahead of search_queue (search_backlog.h says why and how order is kept).
// The insert trigger's program and its queue row were over half of what
// indexing added to an append. Deletes and updates keep their triggers. A
// program that inserts events without the plugin indexes them itself.
inline constexpr const char* kSchemaV8 = R"sql(
DROP TRIGGER events_search_insert;
)sql";

// v9: an event id is unique within its session whoever made it (docs/api.md): a
// client id equal to a generated id is a retry or a conflict, so the look-up
// must find generated ids too. events_visible_id keys visible events by id
// first: generated ids are UUIDv7, time-ordered, so their entries all land
// on the index's rightmost page (cached) rather than on a random page as in
// v1's (sid, id) index; client ids land where they sort, as under v7. Not
// UNIQUE: a v7/v8 file may already hold a client id equal to a generated
// one. The single writer checks before it inserts, in the same transaction.
// IF [NOT] EXISTS: the step is re-runnable like every mysql step.
inline constexpr const char* kSchemaV9 = R"sql(
CREATE INDEX IF NOT EXISTS events_visible_id ON events (id, sid) WHERE deleted_at = 0;
DROP INDEX IF EXISTS events_client_id;
)sql";

// v10: an app's session list orders by (updated_at desc, user desc, id desc)
// (mnemo_session_list_req): sessions of different users may share an id and
// an updated_at, and a page cursor without the user skipped or repeated
// them. sessions_app_user_updated serves that order, and search's recent
// sessions in the same order; it replaces sessions_app_updated, which no
// statement uses any more (every append rewrites updated_at, so each index
// on it costs the append a write). IF [NOT] EXISTS: the step is re-runnable.
inline constexpr const char* kSchemaV10 = R"sql(
CREATE INDEX IF NOT EXISTS sessions_app_user_updated ON sessions (app, updated_at, user, id);
DROP INDEX IF EXISTS sessions_app_updated;
)sql";

// The step that adds long-term memories (docs/memories.md, mnemo_plugin.h
// "long-term memories"); its number lives here only.
//  - memories: row_key is the ABI's key (AUTOINCREMENT: never given to
//    another memory, even after the newest is removed); folded_text is the
//    dedupe key mnemod makes (NULL on a captured row, which no dedupe
//    matches); word_count feeds BM25; vector_blob holds the
//    vector as float32 little-endian; change_seq is the feed position of
//    the row's latest change. An expired row stays until the sweep.
//  - memories_id keeps one stored row per (app, user, id) (an expired one
//    is removed before its id is written again); memories_folded finds the
//    dedupe match; memories_updated serves list pages; memories_expiry the
//    sweep; memories_change the feed; memories_pending the embedder;
//    memories_source the rewind or rewrite that removes captured rows.
//  - memory_removals: the feed's removals until the sweep forgets them;
//    memory_feed: the counter of change_seq and the feed's horizon (the
//    single writer makes a plain counter enough); memory_apps: each app's
//    fixed vector dimension.
//  - memories_words: keyword recall's index over memory text with the
//    tokenizer of events_words (v5); triggers keep it in step (memory
//    writes are far rarer than appends, so v6's queue is not needed).
// IF [NOT] EXISTS and OR IGNORE: the step is re-runnable like v9.
inline constexpr const char* kSchemaMemories = R"sql(
CREATE TABLE IF NOT EXISTS memories (
  row_key INTEGER PRIMARY KEY AUTOINCREMENT,
  app TEXT NOT NULL,
  user TEXT NOT NULL,
  id TEXT NOT NULL,
  name_space TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL,
  folded_text TEXT,
  word_count INTEGER NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}',
  session_id TEXT,
  source_session TEXT,
  source_seq INTEGER NOT NULL DEFAULT 0,
  embedding INTEGER NOT NULL DEFAULT 0,
  embedding_model TEXT,
  vector_blob BLOB,
  text_version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL DEFAULT 0,
  change_seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS memories_id ON memories (app, user, id);
CREATE INDEX IF NOT EXISTS memories_folded ON memories (app, user, name_space, folded_text);
CREATE INDEX IF NOT EXISTS memories_updated ON memories (app, user, updated_at, id);
CREATE INDEX IF NOT EXISTS memories_expiry ON memories (expires_at) WHERE expires_at > 0;
CREATE UNIQUE INDEX IF NOT EXISTS memories_change ON memories (change_seq);
CREATE INDEX IF NOT EXISTS memories_pending ON memories (embedding, row_key) WHERE embedding = 1;
CREATE INDEX IF NOT EXISTS memories_source ON memories (app, user, source_session, source_seq);

CREATE TABLE IF NOT EXISTS memory_removals (
  change_seq INTEGER PRIMARY KEY,
  row_key INTEGER NOT NULL,
  app TEXT NOT NULL,
  user TEXT NOT NULL,
  removed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_removals_age ON memory_removals (removed_at);

CREATE TABLE IF NOT EXISTS memory_feed (
  id INTEGER PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  horizon INTEGER NOT NULL
);
INSERT OR IGNORE INTO memory_feed (id, last_seq, horizon) VALUES (1, 0, 0);

CREATE TABLE IF NOT EXISTS memory_apps (
  app TEXT PRIMARY KEY,
  dimension INTEGER NOT NULL
) WITHOUT ROWID;

CREATE VIRTUAL TABLE IF NOT EXISTS memories_words USING fts5(text, content = 'memories', content_rowid = 'row_key',
  tokenize = "unicode61 remove_diacritics 2 separators ')sql" MNEMO_SQLITE_WORD_SEPARATORS_V5 R"sql('");
CREATE TRIGGER IF NOT EXISTS memories_words_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memories_words (rowid, text) VALUES (new.row_key, new.text);
END;
CREATE TRIGGER IF NOT EXISTS memories_words_delete AFTER DELETE ON memories BEGIN
  INSERT INTO memories_words (memories_words, rowid, text) VALUES ('delete', old.row_key, old.text);
END;
CREATE TRIGGER IF NOT EXISTS memories_words_update AFTER UPDATE OF text ON memories
WHEN new.text <> old.text BEGIN
  INSERT INTO memories_words (memories_words, rowid, text) VALUES ('delete', old.row_key, old.text);
  INSERT INTO memories_words (rowid, text) VALUES (new.row_key, new.text);
END;
)sql";
inline constexpr int kMemoriesVersion = 11;

// The step that adds the extraction cursor (memory.capture: extract;
// mnemo_plugin.h "extraction cursor"); its number lives here only.
// sessions.extracted_seq is the highest seq handed to the extractor, 0 for
// every session stored before it. SQLite has no ADD COLUMN IF NOT EXISTS;
// the step needs none: it commits with its version row (migrate()), so a
// crash leaves it wholly done or not begun.
inline constexpr const char* kSchemaExtractCursor = R"sql(
ALTER TABLE sessions ADD COLUMN extracted_seq INTEGER NOT NULL DEFAULT 0;
)sql";
inline constexpr int kExtractCursorVersion = 12;

// The step that lets a user's recall read an index alone: the scope of
// kMemoryUserScopeSql (app, user, expiry) and the BM25 totals over it
// (COUNT, SUM(word_count)) are all in memories_scope, where through
// memories_source every memory of the user cost a table row read, vector
// and all (at 1,000 memories a user, most of a hybrid recall's time).
inline constexpr const char* kSchemaMemoryScope = R"sql(
CREATE INDEX IF NOT EXISTS memories_scope ON memories (app, user, expires_at, word_count);
)sql";
inline constexpr int kMemoryScopeVersion = 13;

// The step that takes indexing off the writer's group commit (search_backlog.h):
// an appended event is committed unindexed and the writer indexes it later,
// in batches. search_indexed.up_to is the durable mark: every event at or
// below it went through the indexes, none above it did (events above it are
// the unindexed tail, which searches scan). It starts at the newest event,
// since every earlier step indexed at commit. The delete and update
// triggers queue changes only for rows at or below the mark: FTS5 must never
// take a 'delete' for a row it was never given (an external-content index
// is corrupt after one), and a tail row is indexed from its state at
// indexing time, so what happened to it before needs no queue row.
// IF [NOT] EXISTS and OR IGNORE: the step is re-runnable like v9.
inline constexpr const char* kSchemaSearchMark = R"sql(
CREATE TABLE IF NOT EXISTS search_indexed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  up_to INTEGER NOT NULL
);
INSERT OR IGNORE INTO search_indexed (id, up_to) SELECT 1, coalesce(max(rowid), 0) FROM events;
DROP TRIGGER IF EXISTS events_search_delete;
DROP TRIGGER IF EXISTS events_search_hide;
DROP TRIGGER IF EXISTS events_search_show;
CREATE TRIGGER events_search_delete AFTER DELETE ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND old.rowid <= (SELECT up_to FROM search_indexed) BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (old.rowid, 0, 1, old.search_trigrams = 1, old.search_text);
END;
CREATE TRIGGER events_search_hide AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN old.deleted_at = 0 AND old.search_text <> '' AND (new.deleted_at <> 0 OR new.search_text <> old.search_text OR
  (old.search_trigrams = 1 AND new.search_trigrams <> 1)) AND old.rowid <= (SELECT up_to FROM search_indexed) BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (old.rowid, 0, new.deleted_at <> 0 OR new.search_text <> old.search_text, old.search_trigrams = 1,
          old.search_text);
END;
CREATE TRIGGER events_search_show AFTER UPDATE OF deleted_at, search_text, search_trigrams ON events
WHEN new.deleted_at = 0 AND new.search_text <> '' AND (old.deleted_at <> 0 OR new.search_text <> old.search_text OR
  (new.search_trigrams = 1 AND old.search_trigrams <> 1)) AND new.rowid <= (SELECT up_to FROM search_indexed) BEGIN
  INSERT INTO search_queue (doc, added, words, trigrams, search_text)
  VALUES (new.rowid, 1, old.deleted_at <> 0 OR new.search_text <> old.search_text, new.search_trigrams = 1,
          new.search_text);
END;
)sql";
inline constexpr int kSearchMarkVersion = 14;

// The step that moves search and recall onto the host's terms (ABI 6:
// mnemo_host.terms, folded words Snowball-stemmed; plugins/host/bm25.h). A
// word rule changed meaning, so every index built before is stale; both
// indexes are re-derived in batches by the writer (writer.h), never in one
// transaction that would hold the file for the whole of it:
//  - events_words is rebuilt empty with the tokenizer "mnemo"
//    (term_tokenizer.h: a document's tokens are its host terms; the
//    separators of v5 are not needed: the host splits the words), and
//    events_trigrams empty (its rows are re-derived with the others, so no
//    row is given to it twice); search_indexed.up_to goes back to 0: every
//    event is the unindexed tail (search_backlog.h), which the writer
//    indexes a batch at a time and searches read meanwhile, complete.
//  - events.term_count: the number of host terms of the search text
//    (BM25's length), written by every insert; NULL on the rows from
//    before, which the backlog's batches count as they index them.
//    sessions.search_terms sums it over the session's visible events (kept
//    by every write, as event_count is), so N and the total length of a
//    scope are a sum over its live sessions; an event not counted yet is in
//    the tail, whose reads add its length (plugins/sql/search_hits.h).
//  - memories_words is rebuilt empty with "mnemo" and re-derived likewise:
//    memories_indexed holds the memories it holds: row_key <= up_to or
//    above end_key (the newest key at this step: every later memory is
//    indexed by the triggers as it is written); the writer moves up_to to
//    end_key a batch at a time, recounting word_count as host terms
//    (memory_backlog.h), and recall reads the rest of the scope beside the
//    index. The triggers touch only the rows the index holds.
inline constexpr const char* kSchemaHostTerms = R"sql(
ALTER TABLE events ADD COLUMN term_count INTEGER;
ALTER TABLE sessions ADD COLUMN search_terms INTEGER NOT NULL DEFAULT 0;
DROP TABLE events_words;
DROP TABLE events_trigrams;
CREATE VIRTUAL TABLE events_words USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = 'mnemo');
CREATE VIRTUAL TABLE events_trigrams USING fts5(search_text, content = 'events', content_rowid = 'rowid',
  tokenize = 'trigram');
UPDATE search_indexed SET up_to = 0;

DROP TRIGGER memories_words_insert;
DROP TRIGGER memories_words_delete;
DROP TRIGGER memories_words_update;
DROP TABLE memories_words;
CREATE VIRTUAL TABLE memories_words USING fts5(text, content = 'memories', content_rowid = 'row_key',
  tokenize = 'mnemo');
CREATE TABLE memories_indexed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  up_to INTEGER NOT NULL,
  end_key INTEGER NOT NULL
);
INSERT INTO memories_indexed (id, up_to, end_key) SELECT 1, 0, coalesce(max(row_key), 0) FROM memories;
CREATE TRIGGER memories_words_insert AFTER INSERT ON memories
WHEN new.row_key > (SELECT end_key FROM memories_indexed) OR new.row_key <= (SELECT up_to FROM memories_indexed)
BEGIN
  INSERT INTO memories_words (rowid, text) VALUES (new.row_key, new.text);
END;
CREATE TRIGGER memories_words_delete AFTER DELETE ON memories
WHEN old.row_key > (SELECT end_key FROM memories_indexed) OR old.row_key <= (SELECT up_to FROM memories_indexed)
BEGIN
  INSERT INTO memories_words (memories_words, rowid, text) VALUES ('delete', old.row_key, old.text);
END;
CREATE TRIGGER memories_words_update AFTER UPDATE OF text ON memories
WHEN new.text <> old.text AND (old.row_key > (SELECT end_key FROM memories_indexed) OR
  old.row_key <= (SELECT up_to FROM memories_indexed)) BEGIN
  INSERT INTO memories_words (memories_words, rowid, text) VALUES ('delete', old.row_key, old.text);
  INSERT INTO memories_words (rowid, text) VALUES (new.row_key, new.text);
END;
)sql";
inline constexpr int kHostTermsVersion = 15;

// The step that keeps each memory's host terms beside its text
// (memories.terms: plugins/host/term_list.h), written with the text by
// every write, and memories_recall, an index holding all that one user's
// keyword recall ranks by (the scope, updated_at and id for ties, the word
// count and the terms), so that recall reads an index range instead of
// the user's rows (each a text, its metadata and a vector) and splits no
// text again (plugins/sql/ops_memories_search.cpp). memories_terms says
// which memories have no list yet: row_key in (up_to, end_key], end_key
// being the newest key at this step (every later memory is written with
// its list); the writer fills them a batch at a time (memory_backlog.h),
// and recall splits the text of a memory without a list meanwhile.
// memory_app_stats and memory_term_stats count the memories that have a
// list (plugins/sql/memory_stats.h), for an app-wide recall's BM25.
inline constexpr const char* kSchemaMemoryTerms = R"sql(
ALTER TABLE memories ADD COLUMN terms TEXT;
CREATE INDEX memories_recall ON memories (app, user, expires_at, updated_at, id, word_count, terms);
CREATE TABLE memory_app_stats (
  app TEXT PRIMARY KEY,
  documents INTEGER NOT NULL,
  length INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE memory_term_stats (
  app TEXT NOT NULL,
  term TEXT NOT NULL,
  documents INTEGER NOT NULL,
  PRIMARY KEY (app, term)
) WITHOUT ROWID;
CREATE TABLE memories_terms (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  up_to INTEGER NOT NULL,
  end_key INTEGER NOT NULL
);
INSERT INTO memories_terms (id, up_to, end_key) SELECT 1, 0, coalesce(max(row_key), 0) FROM memories;
)sql";
inline constexpr int kMemoryTermsVersion = 16;

inline constexpr std::array<Migration, 16> kMigrations{{{1, kSchemaV1},
                                                        {2, kSchemaV2},
                                                        {3, kSchemaV3},
                                                        {4, kSchemaV4},
                                                        {5, kSchemaV5},
                                                        {6, kSchemaV6},
                                                        {7, kSchemaV7},
                                                        {8, kSchemaV8},
                                                        {9, kSchemaV9},
                                                        {10, kSchemaV10},
                                                        {kMemoriesVersion, kSchemaMemories},
                                                        {kExtractCursorVersion, kSchemaExtractCursor},
                                                        {kMemoryScopeVersion, kSchemaMemoryScope},
                                                        {kSearchMarkVersion, kSchemaSearchMark},
                                                        {kHostTermsVersion, kSchemaHostTerms},
                                                        {kMemoryTermsVersion, kSchemaMemoryTerms}}};
inline constexpr int kSchemaVersion = kMigrations.back().version;

// The bookkeeping table itself is not a migration: it must exist to read the
// version that says which migrations to run.
inline constexpr const char* kSchemaVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)";

}  // namespace mnemo::sqlite
