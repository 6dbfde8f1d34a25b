#include "session_rows.h"

#include "finalize_rows.h"
#include "hot_queries.h"

#include <string>
#include <vector>

namespace mnemo::sqlite {
namespace {

SessionMeta meta_of(const Query& row) {
    SessionMeta meta;
    meta.sid = row.i64(0);
    meta.created_at_us = row.i64(7);
    meta.updated_at_us = row.i64(8);
    meta.expires_at_us = row.i64(9);
    meta.ttl_us = row.i64(10);
    meta.version = row.i64(11);
    meta.event_count = row.i64(12);
    meta.last_seq = row.i64(13);
    meta.usage = mnemo_usage{row.i64(14), row.i64(15), row.i64(16), row.i64(17), row.i64(18), row.f64(19)};
    meta.state_bytes = row.i64(20);
    meta.deleted_at_us = row.i64(21);
    return meta;
}

// Deletes the children of the sessions `selection` picks; the selection is a
// constant SQL text so each statement stays cached.
template <typename... Args>
PurgeCounts purge_children_where(Conn& conn, const std::string& selection, const Args&... args) {
    auto remove = [&](const char* table) {
        Query(conn, std::string("DELETE FROM ") + table + " WHERE sid IN (" + selection + ")").args(args...).run();
        return conn.changes();
    };
    PurgeCounts counts;
    counts.events = remove("events");
    counts.summaries = remove("summaries");
    counts.tracks = remove("track_events");
    remove("session_state");
    return counts;
}

template <typename... Args>
PurgeCounts purge_where(Conn& conn, const std::string& selection, const Args&... args) {
    PurgeCounts counts = purge_children_where(conn, selection, args...);
    Query(conn, "DELETE FROM sessions WHERE sid IN (" + selection + ")").args(args...).run();
    counts.sessions = conn.changes();
    return counts;
}

// As purge_where, but the sessions still owing their finalize stay as
// tombstones; earlier tombstones (already purged once) are not counted again.
template <typename... Args>
PurgeCounts entomb_where(Conn& conn, int64_t now_us, const std::string& selection, const Args&... args) {
    auto sids_where = [&](const std::string& condition) {
        std::vector<int64_t> sids;
        Query rows(conn, "SELECT sid FROM sessions WHERE sid IN (" + selection + ") AND " + condition);
        rows.args(args...);
        while (rows.step()) sids.push_back(rows.i64(0));
        return sids;
    };
    const int64_t counted =
        static_cast<int64_t>(sids_where("deleted_at <> " + std::to_string(kTombstoneDeletedAtUs)).size());
    const std::vector<int64_t> owed = sids_where(kOwesFinalizeSql);
    PurgeCounts counts = purge_children_where(conn, selection, args...);
    Query(conn, "DELETE FROM sessions WHERE sid IN (" + selection + ") AND NOT " + kOwesFinalizeSql)
        .args(args...)
        .run();
    for (int64_t sid : owed) entomb_session(conn, sid, now_us);
    counts.sessions = counted;
    return counts;
}

}  // namespace

std::optional<SessionMeta> find_session(Conn& conn, const mnemo_key& key) {
    Query row(conn, kFindSessionSql);
    row.args(key.app, key.user, key.session_id);
    if (!row.step()) return std::nullopt;
    return meta_of(row);
}

SessionMeta require_live(Conn& conn, const mnemo_key& key, int64_t now_us) {
    std::optional<SessionMeta> meta = find_session(conn, key);
    if (!meta || !meta->live(now_us)) throw StoreError(MNEMO_E_NOT_FOUND, describe(key) + " not found");
    return *meta;
}

void check_version(const SessionMeta& meta, int has_expected, int64_t expected, const mnemo_key& key) {
    if (!has_expected || meta.version == expected) return;
    throw StoreError(MNEMO_E_CONFLICT,
                     describe(key) + " is at version " + std::to_string(meta.version) + ", not the expected " +
                         std::to_string(expected) + "; re-read it and retry",
                     meta.version);
}

SessionMeta insert_session(Conn& conn, const NewSession& session) {
    if (std::optional<SessionMeta> old = find_session(conn, session.key)) {
        if (old->live(session.now_us)) throw StoreError(MNEMO_E_EXISTS, describe(session.key) + " already exists");
        purge_session(conn, old->sid);
    }
    Query(conn,
          "INSERT INTO sessions (app, user, id, title, parent_id, metadata, created_at, updated_at, expires_at, "
          "ttl_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9)")
        .args(session.key.app, session.key.user, session.key.session_id, session.title.ptr ? session.title : str(""),
              session.parent_id, session.metadata_json.ptr ? session.metadata_json : str("{}"), session.now_us,
              expiry_after(session.now_us, session.ttl_us), session.ttl_us)
        .run();
    SessionMeta meta;
    meta.sid = sqlite3_last_insert_rowid(conn.db());
    meta.created_at_us = meta.updated_at_us = session.now_us;
    meta.expires_at_us = expiry_after(session.now_us, session.ttl_us);
    meta.ttl_us = session.ttl_us;
    meta.version = 1;
    return meta;
}

void mark_written(SessionMeta& meta, int64_t now_us) {
    meta.version += 1;
    meta.updated_at_us = now_us;
    if (meta.ttl_us > 0) meta.expires_at_us = now_us + meta.ttl_us;
}

void save_session(Conn& conn, const SessionMeta& meta) {
    Query(conn,
          "UPDATE sessions SET updated_at = ?2, expires_at = ?3, version = ?4, event_count = ?5, last_seq = ?6, "
          "input_tokens = ?7, output_tokens = ?8, cache_read_tokens = ?9, cache_write_tokens = ?10, "
          "total_tokens = ?11, cost_usd = ?12, state_bytes = ?13 WHERE sid = ?1")
        .args(meta.sid, meta.updated_at_us, meta.expires_at_us, meta.version, meta.event_count, meta.last_seq,
              meta.usage.input_tokens, meta.usage.output_tokens, meta.usage.cache_read_tokens,
              meta.usage.cache_write_tokens, meta.usage.total_tokens, meta.usage.cost_usd, meta.state_bytes)
        .run();
}

mnemo_session session_row(const Query& row) {
    SessionMeta meta = meta_of(row);
    mnemo_session session{};
    session.app = row.str(1);
    session.user = row.str(2);
    session.id = row.str(3);
    session.title = row.str(4);
    session.parent_id = row.str(5);
    session.metadata_json = row.str(6);
    session.created_at_us = meta.created_at_us;
    session.updated_at_us = meta.updated_at_us;
    session.expires_at_us = meta.expires_at_us;
    session.ttl_us = meta.ttl_us;
    session.version = meta.version;
    session.event_count = meta.event_count;
    session.last_seq = meta.last_seq;
    session.usage = meta.usage;
    session.deleted_at_us = meta.deleted_at_us;
    return session;
}

void emit_session_row(const Query& row, Output& out) {
    out.session(session_row(row));
}

void emit_session(Conn& conn, int64_t sid, Output& out) {
    Query row(conn, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE sid = ?1");
    row.args(sid);
    if (row.step()) emit_session_row(row, out);
}

PurgeCounts purge_session(Conn& conn, int64_t sid) {
    return purge_where(conn, "SELECT ?1", sid);
}

PurgeCounts purge_session_for_finalize(Conn& conn, int64_t sid, int64_t now_us) {
    return entomb_where(conn, now_us, "SELECT ?1", sid);
}

PurgeCounts purge_user_sessions_for_finalize(Conn& conn, mnemo_str app, mnemo_str user, int64_t now_us) {
    return entomb_where(conn, now_us, "SELECT sid FROM sessions WHERE app = ?1 AND user = ?2", app, user);
}

}  // namespace mnemo::sqlite
