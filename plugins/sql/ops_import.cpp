// Import: records stored as given (ids, seqs, versions, timestamps and
// counters kept), each replacing the row of the same identity, in the one
// transaction of this write. Events go through insert_event like appended
// ones, so every index and trigger on events sees them.
#include "event_rows.h"
#include "lane_rows.h"
#include "memory_records.h"
#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"

namespace mnemo::sqlcore {
namespace {

// The live session a record belongs to; its session record must come first.
SessionMeta owner_of(Db& db, const mnemo_record& record, size_t index, int64_t now_us) {
    std::optional<SessionMeta> meta = find_session(db, record.key);
    if (meta && meta->live(now_us)) return *meta;
    throw StoreError(MNEMO_E_INVALID, "import record " + std::to_string(index) + " belongs to " + describe(record.key) +
                                          ", which is neither stored nor imported before it; put the session "
                                          "record first");
}

// A live session keeps its children (later records replace them); a dead
// one is purged and an absent one created, then the row takes every value.
void import_session(Db& db, const mnemo_session& s, int64_t now_us) {
    const mnemo_key key{s.app, s.user, s.id};
    std::optional<SessionMeta> found = find_session(db, key);
    if (!found || !found->live(now_us))
        insert_session(db, NewSession{key, s.title, s.parent_id, s.metadata_json, 0, now_us});
    Query(db,
          "UPDATE sessions SET title = ?, parent_id = ?, metadata = ?, created_at = ?, updated_at = ?, "
          "expires_at = ?, ttl_us = ?, version = ?, event_count = ?, last_seq = ?, input_tokens = ?, "
          "output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?, total_tokens = ?, "
          "cost_usd = ?, extracted_seq = ? WHERE app = ? AND user = ? AND id = ?")
        .args(s.title.ptr ? s.title : str(""), s.parent_id, s.metadata_json.ptr ? s.metadata_json : str("{}"),
              s.created_at_us, s.updated_at_us, s.expires_at_us, s.ttl_us, s.version, s.event_count, s.last_seq,
              s.usage.input_tokens, s.usage.output_tokens, s.usage.cache_read_tokens, s.usage.cache_write_tokens,
              s.usage.total_tokens, s.usage.cost_usd, s.extracted_seq, s.app, s.user, s.id)
        .run();
}

// The session's search_terms follows the visible event replaced and the one stored.
void import_event(Db& db, const SessionMeta& meta, const mnemo_event& event) {
    int64_t removed = 0;
    {
        Query old(db, "SELECT COALESCE(SUM(term_count), 0) FROM events WHERE sid = ? AND seq = ? AND deleted_at = 0");
        old.args(meta.sid, event.seq);
        if (old.step()) removed = old.i64(0);
    }
    Query(db, "DELETE FROM events WHERE sid = ? AND seq = ?").args(meta.sid, event.seq).run();
    const int64_t added = insert_event(db, meta.sid, event.seq, event);
    Query(db, "UPDATE sessions SET search_terms = search_terms + ? WHERE sid = ?")
        .args(added - removed, meta.sid)
        .run();
}

// Through StateWriter, so sizes stay exact; then the scope takes the record's expiry.
void import_state(Db& db, const mnemo_record& r, size_t index, int64_t now_us) {
    if (r.scope == MNEMO_SCOPE_SESSION) {
        SessionMeta meta = owner_of(db, r, index, now_us);
        StateWriter writer(db, StateTarget{&meta, r.key.app, r.key.user}, now_us);
        writer.apply_one(MNEMO_SCOPE_SESSION, r.state_key, r.value_json);
        writer.finish(0, 0, 0);
        save_session(db, meta);
        return;
    }
    const mnemo_str user = r.scope == MNEMO_SCOPE_USER ? r.key.user : mnemo_str{nullptr, 0};
    StateWriter writer(db, StateTarget{nullptr, r.key.app, user}, now_us);
    writer.apply_one(r.scope, r.state_key, r.value_json);
    writer.finish(0, 0, 0);
    Query(db, "UPDATE state_scopes SET expires_at = ? WHERE scope = ? AND app = ? AND user = ?")
        .args(r.expires_at_us, r.scope, r.key.app, user.ptr ? user : str(""))
        .run();
}

void import_summary(Db& db, const SessionMeta& meta, const mnemo_summary& s) {
    Query(db,
          "REPLACE INTO summaries (sid, filter_key, up_to_seq, from_seq, events_covered, text, created_at, source) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .args(meta.sid, s.filter_key.ptr ? s.filter_key : str(""), s.up_to_seq, s.from_seq, s.events_covered, s.text,
              s.created_at_us, s.source)
        .run();
}

void import_track(Db& db, const SessionMeta& meta, mnemo_str track, const mnemo_track_event& t) {
    Query(db, "REPLACE INTO track_events (sid, track, seq, payload, timestamp_us) VALUES (?, ?, ?, ?, ?)")
        .args(meta.sid, track, t.seq, t.payload_json, t.timestamp_us)
        .run();
}

// store_lane inserts only at version 1: an imported lane of any version
// replaces the row of its (app, lane).
void import_lane(Db& db, const mnemo_lane& lane) {
    Query(db, "DELETE FROM lanes WHERE app = ? AND lane = ?").args(lane.app, lane.lane).run();
    Query(db,
          "INSERT INTO lanes (app, lane, session_id, user, platform, chat_type, created_at, updated_at, suspended, "
          "resume_pending, resume_reason, was_auto_reset, auto_reset_reason, reset_had_activity, is_fresh_reset, "
          "pending_restarts, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .args(lane.app, lane.lane, lane.session_id, lane.user, lane.platform.ptr ? lane.platform : str(""),
              lane.chat_type.ptr ? lane.chat_type : str(""), lane.created_at_us, lane.updated_at_us,
              lane.suspended != 0 ? 1 : 0, lane.resume_pending != 0 ? 1 : 0, lane.resume_reason,
              lane.was_auto_reset != 0 ? 1 : 0, lane.auto_reset_reason, lane.reset_had_activity != 0 ? 1 : 0,
              lane.is_fresh_reset != 0 ? 1 : 0, lane.restart_count, lane.version)
        .run();
}

void import_record(Db& db, FeedClock* clock, const mnemo_record& r, size_t index, int64_t now_us) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return import_session(db, *r.session, now_us);
        case MNEMO_RECORD_EVENT:
            return import_event(db, owner_of(db, r, index, now_us), *r.event);
        case MNEMO_RECORD_STATE:
            return import_state(db, r, index, now_us);
        case MNEMO_RECORD_SUMMARY:
            return import_summary(db, owner_of(db, r, index, now_us), *r.summary);
        case MNEMO_RECORD_TRACK:
            return import_track(db, owner_of(db, r, index, now_us), r.track, *r.track_event);
        case MNEMO_RECORD_LANE:
            return import_lane(db, *r.lane);
        case MNEMO_RECORD_MEMORY:
            return import_memory(db, *clock, r, now_us);
        default:
            throw StoreError(MNEMO_E_INVALID,
                             "import record " + std::to_string(index) + " has unknown kind " + std::to_string(r.kind));
    }
}

}  // namespace

void import_records(Db& db, const mnemo_import_req& req) {
    // The feed's clock is taken at the first memory record, after the session
    // records before it took their rows' locks (the order appends take them
    // in); the checks of every memory record follow at once, and one that
    // fails undoes what this call stored before it.
    std::optional<FeedClock> clock;
    for (size_t i = 0; i < req.n_records; ++i) {
        const mnemo_record& record = req.records[i];
        if (record.kind == MNEMO_RECORD_MEMORY && !clock) {
            clock.emplace(db);
            check_memory_records(db, req);
        }
        import_record(db, clock ? &*clock : nullptr, record, i, req.now_us);
    }
    if (clock) clock->save();
}

}  // namespace mnemo::sqlcore
