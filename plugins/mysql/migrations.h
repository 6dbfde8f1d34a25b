// migrations.h -- the mysql backend's schema history: an ordered list of
// steps, each a list of statements applied once and recorded in
// schema_version. MySQL commits every DDL statement on its own, so a step is
// not atomic: each statement is written to be re-runnable (IF NOT EXISTS) or
// the step says how to see that it already ran (applied_sql), so a step cut
// off before its version row finishes at the next open. migrate() holds a
// server-wide named lock so only one process applies a step. A shipped step is never edited; a change is a new step at
// the end. Header-only so the unit tests can build old databases from the exact SQL the plugin once ran.
//
// Conventions: names, ids and keys are VARBINARY (compared byte for byte,
// no trailing-space padding); JSON and free text are utf8mb4 LONGTEXT stored
// byte for byte; times are BIGINT microseconds. MySQL has no partial
// indexes, so each "rows in state X" set a sweep needs is a STORED generated
// column that is NULL outside the set, with an index on it: a range scan on
// that index touches exactly the rows due.
#pragma once

#include <array>
#include <vector>

namespace mnemo::mysql {

// What a step re-derives from the host's terms once its DDL ran (schema.h).
enum class Rederive {
    Nothing,
    SearchColumns,     // every search column (rederive_host_terms)
    MemoryTermLists,   // memories.terms where it is NULL (rederive_memory_term_lists)
};

struct Migration {
    int version;
    std::vector<const char*> statements;
    // For a step whose DDL cannot say IF NOT EXISTS: a query answering a
    // count above 0 once the step's statements have run, so a step cut off
    // between its DDL and its version row (a crash) is finished by the next
    // open instead of failing on the DDL. NULL: every statement re-runs.
    const char* applied_sql = nullptr;
    // After the statements (applied or not) and before the version row: the
    // step re-derives columns from the host's terms (rederive.cpp), in
    // batches of their own transactions; re-runnable.
    Rederive rederive = Rederive::Nothing;
};

// v1: sessions and everything that hangs off them, with the finalize
// bookkeeping and the claim columns that share finalize work between
// processes (finalize_owner: the backend instance holding the claim until
// finalize_claim_until).
//  - sessions_live_expiry: live sessions by expires_at (the sweep's expiry);
//  - sessions_purgeable: soft-deleted sessions whose finalize is over or was
//    never needed, by deleted_at;
//  - sessions_finalize_due: pending finalizes by mark time;
//  - events_visible serves reads, eviction and rewind of visible events;
//    events_client_id makes a client id unique among visible events only;
//    events_deleted finds old soft-deleted events for the purge.
inline const Migration kSchemaV1{1,
                                 {
                                     R"sql(CREATE TABLE IF NOT EXISTS sessions (
  sid BIGINT NOT NULL AUTO_INCREMENT,
  app VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  id VARBINARY(128) NOT NULL,
  title LONGTEXT NOT NULL,
  parent_id VARBINARY(255) NULL,
  metadata LONGTEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL DEFAULT 0,
  ttl_us BIGINT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 1,
  event_count BIGINT NOT NULL DEFAULT 0,
  last_seq BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT NOT NULL DEFAULT 0,
  total_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE NOT NULL DEFAULT 0,
  state_bytes BIGINT NOT NULL DEFAULT 0,
  deleted_at BIGINT NOT NULL DEFAULT 0,
  finalize_reason INT NOT NULL DEFAULT 0,
  finalize_marked_at BIGINT NOT NULL DEFAULT 0,
  finalize_attempts BIGINT NOT NULL DEFAULT 0,
  finalized_at BIGINT NOT NULL DEFAULT 0,
  finalize_owner BIGINT NOT NULL DEFAULT 0,
  finalize_claim_until BIGINT NOT NULL DEFAULT 0,
  live_expiry BIGINT AS (IF(expires_at > 0 AND deleted_at = 0, expires_at, NULL)) STORED,
  purgeable_at BIGINT AS (IF(deleted_at > 0 AND (finalize_reason = 0 OR finalized_at > 0), deleted_at, NULL)) STORED,
  finalize_due BIGINT AS (IF(finalize_reason > 0 AND finalized_at = 0, finalize_marked_at, NULL)) STORED,
  PRIMARY KEY (sid),
  UNIQUE KEY sessions_key (app, user, id),
  KEY sessions_user_updated (app, user, updated_at, id),
  KEY sessions_app_updated (app, updated_at, id),
  KEY sessions_live_expiry (live_expiry),
  KEY sessions_purgeable (purgeable_at),
  KEY sessions_finalize_due (finalize_due)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS events (
  sid BIGINT NOT NULL,
  seq BIGINT NOT NULL,
  id VARBINARY(768) NOT NULL,
  id_from_client TINYINT NOT NULL DEFAULT 0,
  invocation_id LONGTEXT NULL,
  author LONGTEXT NOT NULL,
  role VARBINARY(255) NOT NULL,
  content LONGTEXT NULL,
  state_delta LONGTEXT NULL,
  usage_json LONGTEXT NULL,
  tool_calls LONGTEXT NULL,
  media LONGTEXT NULL,
  metadata LONGTEXT NULL,
  filter_key VARBINARY(768) NOT NULL DEFAULT '',
  timestamp_us BIGINT NOT NULL,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT NOT NULL DEFAULT 0,
  total_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE NOT NULL DEFAULT 0,
  deleted_at BIGINT NOT NULL DEFAULT 0,
  visible_id VARBINARY(768) AS (IF(deleted_at = 0, id, NULL)) STORED,
  PRIMARY KEY (sid, seq),
  KEY events_visible (sid, deleted_at, seq),
  UNIQUE KEY events_client_id (sid, visible_id),
  KEY events_deleted (deleted_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS session_state (
  sid BIGINT NOT NULL,
  skey VARBINARY(768) NOT NULL,
  value LONGTEXT NOT NULL,
  PRIMARY KEY (sid, skey)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS app_state (
  app VARBINARY(128) NOT NULL,
  skey VARBINARY(768) NOT NULL,
  value LONGTEXT NOT NULL,
  PRIMARY KEY (app, skey)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS user_state (
  app VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  skey VARBINARY(768) NOT NULL,
  value LONGTEXT NOT NULL,
  PRIMARY KEY (app, user, skey)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS state_scopes (
  scope INT NOT NULL,
  app VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  expires_at BIGINT NOT NULL DEFAULT 0,
  bytes BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, app, user),
  KEY state_scopes_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS summaries (
  sid BIGINT NOT NULL,
  filter_key VARBINARY(768) NOT NULL,
  up_to_seq BIGINT NOT NULL,
  from_seq BIGINT NOT NULL,
  events_covered BIGINT NOT NULL,
  text LONGTEXT NOT NULL,
  created_at BIGINT NOT NULL,
  source VARBINARY(64) NOT NULL,
  PRIMARY KEY (sid, filter_key, up_to_seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                     R"sql(CREATE TABLE IF NOT EXISTS track_events (
  sid BIGINT NOT NULL,
  track VARBINARY(255) NOT NULL,
  seq BIGINT NOT NULL,
  payload LONGTEXT NULL,
  timestamp_us BIGINT NOT NULL,
  PRIMARY KEY (sid, track, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                 }};

// v2: lanes, with the columns of docs/api.md's Lane object plus a compare-and-set
// version and the restart counter recovery.stuck_after_restarts needs;
// lanes_updated finds idle lanes of every app for pruning.
inline const Migration kSchemaV2{2,
                                 {
                                     R"sql(CREATE TABLE IF NOT EXISTS lanes (
  app VARBINARY(128) NOT NULL,
  lane VARBINARY(128) NOT NULL,
  session_id VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  platform VARBINARY(255) NOT NULL DEFAULT '',
  chat_type VARBINARY(64) NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  suspended TINYINT NOT NULL DEFAULT 0,
  resume_pending TINYINT NOT NULL DEFAULT 0,
  resume_reason LONGTEXT NULL,
  was_auto_reset TINYINT NOT NULL DEFAULT 0,
  auto_reset_reason VARBINARY(64) NULL,
  reset_had_activity TINYINT NOT NULL DEFAULT 0,
  is_fresh_reset TINYINT NOT NULL DEFAULT 0,
  pending_restarts BIGINT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 1,
  PRIMARY KEY (app, lane),
  KEY lanes_app_updated (app, updated_at, lane),
  KEY lanes_user (app, user),
  KEY lanes_updated (updated_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                 }};

// v3: search (docs/api.md "Search", core/search.h).
//  - search_text: mnemod's core::search_text() of the event, byte for byte:
//    what exact queries are verified against (and word queries too).
//  - search_tokens: the words of search_text (the host's word rules, mnemo_host), each
//    folded and written as search_tokens.h encodes it, with the FULLTEXT
//    index events_search on it. InnoDB's own tokenizer cannot follow the
//    search rules on the raw text: it joins words at `_`, drops words
//    shorter than innodb_ft_min_token_size and stopwords, and folds by
//    collation; encoded tokens are plain [0-9a-z] runs that it keeps whole
//    whatever the text's script, so the index holds exactly our words.
//  - Rows from before v3 keep both columns NULL: they are not searchable.
//    One ALTER, so InnoDB applies the three changes atomically (the table is
//    rebuilt once to add its hidden FTS_DOC_ID). MySQL has no ADD COLUMN IF
//    NOT EXISTS, so the step is skipped when the ALTER already ran (a crash
//    after it and before the version row): its column then exists.
inline const Migration kSchemaV3{3,
                                 {
                                     R"sql(ALTER TABLE events
  ADD COLUMN search_text MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  ADD COLUMN search_tokens MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NULL,
  ADD FULLTEXT KEY events_search (search_tokens))sql",
                                 },
                                 "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
                                 "AND table_name = 'events' AND column_name = 'search_tokens'"};

// v4: an app's session list orders by (updated_at desc, user desc, id desc)
// (mnemo_session_list_req): sessions of different users may share an id and
// an updated_at, and a page cursor without the user skipped or repeated
// them. sessions_app_user_updated serves that order without a filesort, and
// search's recent sessions in the same order; it replaces
// sessions_app_updated, which no statement uses any more (every append
// rewrites updated_at, so each index on it costs the append a write). One
// ALTER, so InnoDB swaps the keys atomically; MySQL has no ADD KEY IF NOT
// EXISTS, so the step is skipped when the new key already exists.
inline const Migration kSchemaV4{4,
                                 {
                                     R"sql(ALTER TABLE sessions
  ADD KEY sessions_app_user_updated (app, updated_at, user, id),
  DROP KEY sessions_app_updated)sql",
                                 },
                                 "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() "
                                 "AND table_name = 'sessions' AND index_name = 'sessions_app_user_updated'"};

// The step that adds long-term memories (docs/memories.md, mnemo_plugin.h
// "long-term memories"); its number lives here only. Tables as sqlite's
// step (plugins/sqlite/migrations.h says what each holds), with:
//  - row_key from InnoDB's AUTO_INCREMENT (never given to another memory:
//    InnoDB keeps the counter across restarts since MySQL 8 / MariaDB 10.2);
//  - memories_folded on a prefix of folded_text (an index entry has a size
//    limit); the dedupe look-up compares the whole text (NULL on a
//    captured row: no dedupe matches it);
//  - search_tokens: the memory text's words as search_tokens.h encodes
//    them, with the FULLTEXT index memories_search, as events have (v3);
//  - memory_feed's one row is the counter every memory write takes FOR
//    UPDATE first, so daemons sharing the database serialize their memory
//    writes on it and change_seq follows commit order.
// Every statement re-runs (IF NOT EXISTS, INSERT IGNORE).
inline constexpr int kMemoriesVersion = 5;
inline const Migration kSchemaMemories{kMemoriesVersion,
                                       {
                                           R"sql(CREATE TABLE IF NOT EXISTS memories (
  row_key BIGINT NOT NULL AUTO_INCREMENT,
  app VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  id VARBINARY(128) NOT NULL,
  name_space VARBINARY(128) NOT NULL DEFAULT '',
  text LONGTEXT NOT NULL,
  folded_text LONGBLOB,
  word_count BIGINT NOT NULL DEFAULT 0,
  metadata LONGTEXT NOT NULL,
  session_id VARBINARY(128) NULL,
  source_session VARBINARY(128) NULL,
  source_seq BIGINT NOT NULL DEFAULT 0,
  embedding TINYINT NOT NULL DEFAULT 0,
  embedding_model VARBINARY(255) NULL,
  vector_blob LONGBLOB NULL,
  text_version BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL DEFAULT 0,
  change_seq BIGINT NOT NULL,
  search_tokens MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin NULL,
  PRIMARY KEY (row_key),
  UNIQUE KEY memories_id (app, user, id),
  KEY memories_folded (app, user, name_space, folded_text(255)),
  KEY memories_updated (app, user, updated_at, id),
  KEY memories_expiry (expires_at),
  UNIQUE KEY memories_change (change_seq),
  KEY memories_pending (embedding, row_key),
  KEY memories_source (app, user, source_session, source_seq),
  FULLTEXT KEY memories_search (search_tokens)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                           R"sql(CREATE TABLE IF NOT EXISTS memory_removals (
  change_seq BIGINT NOT NULL,
  row_key BIGINT NOT NULL,
  app VARBINARY(128) NOT NULL,
  user VARBINARY(128) NOT NULL,
  removed_at BIGINT NOT NULL,
  PRIMARY KEY (change_seq),
  KEY memory_removals_age (removed_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin)sql",
                                           R"sql(CREATE TABLE IF NOT EXISTS memory_feed (
  id INT NOT NULL,
  last_seq BIGINT NOT NULL,
  horizon BIGINT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB)sql",
                                           "INSERT IGNORE INTO memory_feed (id, last_seq, horizon) VALUES (1, 0, 0)",
                                           R"sql(CREATE TABLE IF NOT EXISTS memory_apps (
  app VARBINARY(128) NOT NULL,
  dimension BIGINT NOT NULL,
  PRIMARY KEY (app)
) ENGINE=InnoDB)sql",
                                       }};

// The step that adds the extraction cursor (memory.capture: extract;
// mnemo_plugin.h "extraction cursor"); its number lives here only.
// sessions.extracted_seq is the highest seq handed to the extractor, 0 for
// every session stored before it. MySQL has no ADD COLUMN IF NOT EXISTS, so
// the step is skipped when the ALTER already ran (a crash after it and
// before the version row): its column then exists.
inline constexpr int kExtractCursorVersion = 6;
inline const Migration kSchemaExtractCursor{
    kExtractCursorVersion,
    {
        "ALTER TABLE sessions ADD COLUMN extracted_seq BIGINT NOT NULL DEFAULT 0",
    },
    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
    "AND table_name = 'sessions' AND column_name = 'extracted_seq'"};

// The step that lets a user's recall read an index alone: the scope of
// kMemoryUserScopeSql (app, user, expiry) and the BM25 totals over it
// (COUNT, SUM(word_count)) are all in memories_scope, where memories_source
// sent every memory of the user to its clustered row. Skipped when the
// index exists (a crash after the CREATE and before the version row).
inline constexpr int kMemoryScopeVersion = 7;
inline const Migration kSchemaMemoryScope{
    kMemoryScopeVersion,
    {
        "CREATE INDEX memories_scope ON memories (app, user, expires_at, word_count)",
    },
    "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() "
    "AND table_name = 'memories' AND index_name = 'memories_scope'"};

// The steps that move search and recall onto the host's terms (ABI 6:
// mnemo_host.terms, folded words Snowball-stemmed; plugins/host/bm25.h). A
// word rule changed meaning, so every search_tokens column is stale:
//  - events.term_count: the number of host terms of the search text
//    (BM25's length), written by every insert; NULL until the step's
//    re-derivation counts it.
//  - sessions.search_terms: the sum of term_count over the session's
//    visible events, kept by every write as event_count is, so N and the
//    total length of a search's scope are a sum over its live sessions
//    (plugins/sql/search_hits.h).
//  - the re-derivation (rederive.cpp), run by the second step before its
//    version row, under migrate()'s lock: events.search_tokens and
//    term_count of every event still without a term_count, then each
//    session's search_terms, then every memory's search_tokens and
//    word_count (now host terms), each in transactions of at most
//    kRederiveBatch rows, so no transaction holds locks or undo for more.
//    A crash in the middle leaves the version row unwritten: the next open
//    skips the ALTER (its column exists) and goes on from the events not
//    counted yet.
// Two steps, as MySQL has no ADD COLUMN IF NOT EXISTS and each ALTER is
// skipped by its own column.
inline constexpr int kEventTermsVersion = 8;
inline const Migration kSchemaEventTerms{
    kEventTermsVersion,
    {
        "ALTER TABLE events ADD COLUMN term_count BIGINT NULL",
    },
    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
    "AND table_name = 'events' AND column_name = 'term_count'"};
inline constexpr int kHostTermsVersion = 9;
inline const Migration kSchemaHostTerms{
    kHostTermsVersion,
    {
        "ALTER TABLE sessions ADD COLUMN search_terms BIGINT NOT NULL DEFAULT 0",
    },
    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
    "AND table_name = 'sessions' AND column_name = 'search_terms'",
    Rederive::SearchColumns};

// The step that keeps each memory's host terms beside its text
// (memories.terms: plugins/host/term_list.h), written with the text by
// every write, so one user's keyword recall ranks the user's memories from
// that column and their word counts instead of splitting every text again
// (plugins/sql/ops_memories_search.cpp). The re-derivation fills it for
// every memory still without one, in batches; a NULL list is read as
// before meanwhile (recall splits that memory's text). memory_app_stats
// and memory_term_stats count the memories that have a list
// (plugins/sql/memory_stats.h), for an app-wide recall's BM25; the
// re-derivation counts each memory it lists. The ALTER comes last: its
// column says the step's statements ran.
inline constexpr int kMemoryTermsVersion = 10;
inline const Migration kSchemaMemoryTerms{
    kMemoryTermsVersion,
    {
        R"sql(CREATE TABLE IF NOT EXISTS memory_app_stats (
  app VARBINARY(128) NOT NULL,
  documents BIGINT NOT NULL,
  length BIGINT NOT NULL,
  PRIMARY KEY (app)
) ENGINE=InnoDB)sql",
        R"sql(CREATE TABLE IF NOT EXISTS memory_term_stats (
  app VARBINARY(128) NOT NULL,
  term VARBINARY(255) NOT NULL,
  documents BIGINT NOT NULL,
  PRIMARY KEY (app, term)
) ENGINE=InnoDB)sql",
        "ALTER TABLE memories ADD COLUMN terms MEDIUMTEXT NULL",
    },
    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
    "AND table_name = 'memories' AND column_name = 'terms'",
    Rederive::MemoryTermLists};
inline constexpr int kRederiveBatch = 1000;

inline const std::array<const Migration*, 10> kMigrations{
    &kSchemaV1,          &kSchemaV2,          &kSchemaV3,         &kSchemaV4,         &kSchemaMemories,
    &kSchemaExtractCursor, &kSchemaMemoryScope, &kSchemaEventTerms, &kSchemaHostTerms, &kSchemaMemoryTerms};
inline const int kSchemaVersion = kMigrations.back()->version;

// The bookkeeping table itself is not a migration: it must exist to read the
// version that says which migrations to run.
inline constexpr const char* kSchemaVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version (version INT NOT NULL PRIMARY KEY) ENGINE=InnoDB";

}  // namespace mnemo::mysql
