// migrations.h -- the sqlite backend's schema history: an ordered list of
// SQL steps, each applied once in its own transaction and recorded in
// schema_version. A shipped step is never edited; a change is a new step at
// the end. Header-only so the unit tests can build old databases from the
// exact SQL the plugin once ran.
#pragma once

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

// v2: lanes, with the columns of API.md's Lane object plus a compare-and-set
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

inline constexpr std::array<Migration, 3> kMigrations{{{1, kSchemaV1}, {2, kSchemaV2}, {3, kSchemaV3}}};
inline constexpr int kSchemaVersion = kMigrations.back().version;

// The bookkeeping table itself is not a migration: it must exist to read the
// version that says which migrations to run.
inline constexpr const char* kSchemaVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)";

}  // namespace mnemo::sqlite
