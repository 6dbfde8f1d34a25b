// Import: records stored as given (ids, seqs, versions, timestamps and
// counters kept), each replacing the row of the same identity, in the one
// savepoint of this write. Events go through insert_event like appended
// ones, so every index and trigger on events sees them.
#include "event_rows.h"
#include "lane_rows.h"
#include "ops.h"
#include "session_rows.h"
#include "state_rows.h"

namespace mnemo::sqlite {
namespace {

// The live session a record belongs to; its session record must come first.
SessionMeta owner_of(Conn& conn, const mnemo_record& record, size_t index, int64_t now_us) {
    std::optional<SessionMeta> meta = find_session(conn, record.key);
    if (meta && meta->live(now_us)) return *meta;
    throw StoreError(MNEMO_E_INVALID, "import record " + std::to_string(index) + " belongs to " + describe(record.key) +
                                          ", which is neither stored nor imported before it; put the session "
                                          "record first");
}

// A live session keeps its children (later records replace them); a dead
// one is purged and an absent one created, then the row takes every value.
void import_session(Conn& conn, const mnemo_session& s, int64_t now_us) {
    const mnemo_key key{s.app, s.user, s.id};
    std::optional<SessionMeta> found = find_session(conn, key);
    if (!found || !found->live(now_us))
        insert_session(conn, NewSession{key, s.title, s.parent_id, s.metadata_json, 0, now_us});
    Query(conn,
          "UPDATE sessions SET title = ?4, parent_id = ?5, metadata = ?6, created_at = ?7, updated_at = ?8, "
          "expires_at = ?9, ttl_us = ?10, version = ?11, event_count = ?12, last_seq = ?13, input_tokens = ?14, "
          "output_tokens = ?15, cache_read_tokens = ?16, cache_write_tokens = ?17, total_tokens = ?18, "
          "cost_usd = ?19 WHERE app = ?1 AND user = ?2 AND id = ?3")
        .args(s.app, s.user, s.id, s.title.ptr ? s.title : str(""), s.parent_id,
              s.metadata_json.ptr ? s.metadata_json : str("{}"), s.created_at_us, s.updated_at_us, s.expires_at_us,
              s.ttl_us, s.version, s.event_count, s.last_seq, s.usage.input_tokens, s.usage.output_tokens,
              s.usage.cache_read_tokens, s.usage.cache_write_tokens, s.usage.total_tokens, s.usage.cost_usd)
        .run();
}

void import_event(Conn& conn, const SessionMeta& meta, const mnemo_event& event) {
    Query(conn, "DELETE FROM events WHERE sid = ?1 AND seq = ?2").args(meta.sid, event.seq).run();
    insert_event(conn, meta.sid, event.seq, event);
}

// Through StateWriter, so sizes stay exact; then the scope takes the record's expiry.
void import_state(Conn& conn, const mnemo_record& r, size_t index, int64_t now_us) {
    if (r.scope == MNEMO_SCOPE_SESSION) {
        SessionMeta meta = owner_of(conn, r, index, now_us);
        StateWriter writer(conn, StateTarget{&meta, r.key.app, r.key.user}, now_us);
        writer.apply_one(MNEMO_SCOPE_SESSION, r.state_key, r.value_json);
        writer.finish(0, 0, 0);
        save_session(conn, meta);
        return;
    }
    const mnemo_str user = r.scope == MNEMO_SCOPE_USER ? r.key.user : mnemo_str{nullptr, 0};
    StateWriter writer(conn, StateTarget{nullptr, r.key.app, user}, now_us);
    writer.apply_one(r.scope, r.state_key, r.value_json);
    writer.finish(0, 0, 0);
    Query(conn, "UPDATE state_scopes SET expires_at = ?4 WHERE scope = ?1 AND app = ?2 AND user = ?3")
        .args(r.scope, r.key.app, user.ptr ? user : str(""), r.expires_at_us)
        .run();
}

void import_summary(Conn& conn, const SessionMeta& meta, const mnemo_summary& s) {
    Query(conn,
          "INSERT OR REPLACE INTO summaries (sid, filter_key, up_to_seq, from_seq, events_covered, text, created_at, "
          "source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        .args(meta.sid, s.filter_key.ptr ? s.filter_key : str(""), s.up_to_seq, s.from_seq, s.events_covered, s.text,
              s.created_at_us, s.source)
        .run();
}

void import_track(Conn& conn, const SessionMeta& meta, mnemo_str track, const mnemo_track_event& t) {
    Query(conn,
          "INSERT OR REPLACE INTO track_events (sid, track, seq, payload, timestamp_us) VALUES (?1, ?2, ?3, ?4, ?5)")
        .args(meta.sid, track, t.seq, t.payload_json, t.timestamp_us)
        .run();
}

void import_record(Conn& conn, const mnemo_record& r, size_t index, int64_t now_us) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return import_session(conn, *r.session, now_us);
        case MNEMO_RECORD_EVENT:
            return import_event(conn, owner_of(conn, r, index, now_us), *r.event);
        case MNEMO_RECORD_STATE:
            return import_state(conn, r, index, now_us);
        case MNEMO_RECORD_SUMMARY:
            return import_summary(conn, owner_of(conn, r, index, now_us), *r.summary);
        case MNEMO_RECORD_TRACK:
            return import_track(conn, owner_of(conn, r, index, now_us), r.track, *r.track_event);
        case MNEMO_RECORD_LANE:
            return store_lane(conn, *r.lane, LaneVersion{r.lane->version, r.lane->created_at_us});
        default:
            throw StoreError(MNEMO_E_INVALID,
                             "import record " + std::to_string(index) + " has unknown kind " + std::to_string(r.kind));
    }
}

}  // namespace

void import_records(Conn& conn, const mnemo_import_req& req) {
    for (size_t i = 0; i < req.n_records; ++i) import_record(conn, req.records[i], i, req.now_us);
}

}  // namespace mnemo::sqlite
