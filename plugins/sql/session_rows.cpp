#include "session_rows.h"

#include "finalize_rows.h"
#include "columns.h"
#include "dialect.h"

#include <algorithm>
#include <vector>

namespace mnemo::sqlcore {
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
    meta.extracted_seq = row.i64(22);
    return meta;
}

// Deletes one session's children, each by the sid at the head of its
// primary key (a subquery in DELETE would scan whole tables on MariaDB 10.x,
// which cannot turn it into a join).
PurgeCounts purge_children(Db& db, int64_t sid) {
    auto remove = [&](const char* table) {
        return Query(db, std::string("DELETE FROM ") + table + " WHERE sid = ?").args(sid).run();
    };
    PurgeCounts counts;
    counts.events = remove("events");
    counts.summaries = remove("summaries");
    counts.tracks = remove("track_events");
    remove("session_state");
    return counts;
}

PurgeCounts purge_one(Db& db, int64_t sid) {
    PurgeCounts counts = purge_children(db, sid);
    counts.sessions = Query(db, "DELETE FROM sessions WHERE sid = ?").args(sid).run();
    return counts;
}

// The children go; the row stays as a tombstone while the finalize is owed.
// An earlier tombstone (purged once already) is not counted again.
PurgeCounts purge_or_entomb(Db& db, int64_t sid, int64_t now_us) {
    Query row(db, std::string("SELECT deleted_at, ") + kOwesFinalizeSql + " FROM sessions WHERE sid = ?");
    row.args(sid);
    if (!row.step()) return PurgeCounts{};
    const bool counted = row.i64(0) != kTombstoneDeletedAtUs;
    const bool owed = row.i64(1) != 0;
    PurgeCounts counts = purge_children(db, sid);
    if (owed) {
        entomb_session(db, sid, now_us);
    } else {
        Query(db, "DELETE FROM sessions WHERE sid = ?").args(sid).run();
    }
    counts.sessions = counted ? 1 : 0;
    return counts;
}

void insert_row(Db& db, const NewSession& session) {
    Query insert(db,
                 "INSERT INTO sessions (app, user, id, title, parent_id, metadata, created_at, updated_at, "
                 "expires_at, ttl_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.args(session.key.app, session.key.user, session.key.session_id, session.title.ptr ? session.title : str(""),
                session.parent_id, session.metadata_json.ptr ? session.metadata_json : str("{}"), session.now_us,
                session.now_us, expiry_after(session.now_us, session.ttl_us), session.ttl_us);
    try {
        insert.run();
    } catch (const StoreError& e) {
        if (!e.duplicate_key()) throw;
        throw StoreError(MNEMO_E_BUSY, describe(session.key) + " was created by another writer at the same time");
    }
}

}  // namespace

std::optional<SessionMeta> find_session(Db& db, const mnemo_key& key) {
    Query row(db, with_lock(db, kFindSessionSql));
    row.args(key.app, key.user, key.session_id);
    if (!row.step()) return std::nullopt;
    return meta_of(row);
}

SessionMeta require_live(Db& db, const mnemo_key& key, int64_t now_us) {
    std::optional<SessionMeta> meta = find_session(db, key);
    if (!meta || !meta->live(now_us)) throw StoreError(MNEMO_E_NOT_FOUND, session_not_found(key));
    return *meta;
}

void check_version(const SessionMeta& meta, int has_expected, int64_t expected, const mnemo_key& key) {
    if (!has_expected || meta.version == expected) return;
    throw StoreError(MNEMO_E_CONFLICT,
                     describe(key) + " is at version " + std::to_string(meta.version) + ", not the expected " +
                         std::to_string(expected) + "; re-read it and retry",
                     meta.version);
}

SessionMeta insert_session(Db& db, const NewSession& session) {
    if (std::optional<SessionMeta> old = find_session(db, session.key)) {
        if (old->live(session.now_us)) throw StoreError(MNEMO_E_EXISTS, describe(session.key) + " already exists");
        purge_session(db, old->sid);
    }
    insert_row(db, session);
    SessionMeta meta;
    meta.sid = db.last_insert_id();
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

void save_session(Db& db, const SessionMeta& meta) {
    Query(db,
          "UPDATE sessions SET updated_at = ?, expires_at = ?, version = ?, event_count = ?, last_seq = ?, "
          "input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?, "
          "total_tokens = ?, cost_usd = ?, state_bytes = ?, search_terms = search_terms + ? WHERE sid = ?")
        .args(meta.updated_at_us, meta.expires_at_us, meta.version, meta.event_count, meta.last_seq,
              meta.usage.input_tokens, meta.usage.output_tokens, meta.usage.cache_read_tokens,
              meta.usage.cache_write_tokens, meta.usage.total_tokens, meta.usage.cost_usd, meta.state_bytes,
              meta.search_terms_delta, meta.sid)
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
    session.extracted_seq = meta.extracted_seq;
    return session;
}

void emit_session_row(const Query& row, Output& out) {
    out.session(session_row(row));
}

void emit_session(Db& db, int64_t sid, Output& out) {
    Query row(db, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE sid = ?");
    row.args(sid);
    if (row.step()) emit_session_row(row, out);
}

SessionsBySid read_sessions(Db& db, const std::vector<int64_t>& sids) {
    SessionsBySid found;
    for_each_row_in_list(db, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE sid ", sids, 1, {}, "",
                         [&](const Query& rows) {
                             found.emplace(rows.i64(0), OwnedRow<mnemo_session, 6>(session_row(rows), kSessionStrings));
                         });
    return found;
}

PurgeCounts purge_session(Db& db, int64_t sid) {
    return purge_one(db, sid);
}

PurgeCounts purge_session_for_finalize(Db& db, int64_t sid, int64_t now_us) {
    return purge_or_entomb(db, sid, now_us);
}

PurgeCounts purge_user_sessions_for_finalize(Db& db, mnemo_str app, mnemo_str user, int64_t now_us) {
    std::vector<int64_t> sids;
    {
        Query rows(db, with_lock(db, "SELECT sid FROM sessions WHERE app = ? AND user = ?"));
        rows.args(app, user);
        while (rows.step()) sids.push_back(rows.i64(0));
    }
    PurgeCounts total;
    for (int64_t sid : sids) {
        PurgeCounts counts = purge_or_entomb(db, sid, now_us);
        total.sessions += counts.sessions;
        total.events += counts.events;
        total.summaries += counts.summaries;
        total.tracks += counts.tracks;
    }
    return total;
}

}  // namespace mnemo::sqlcore
