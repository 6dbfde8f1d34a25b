#include "event_rows.h"
#include "memory_rows.h"
#include "sql_ops.h"
#include "session_rows.h"

#include <limits>

namespace mnemo::sqlcore {
namespace {

constexpr const char* kSummaryColumns = "filter_key, text, from_seq, up_to_seq, events_covered, created_at, source";

void emit_summary_row(const Query& row, Output& out) {
    mnemo_summary summary{row.str(0), row.str(1), row.i64(2), row.i64(3), row.i64(4), row.i64(5), row.str(6)};
    out.summary(summary);
}

mnemo_str or_empty(mnemo_str s) {
    return s.ptr ? s : str("");
}

}  // namespace

std::optional<int64_t> latest_summary(Db& db, int64_t sid, mnemo_str filter_key, Output* out) {
    Query row(db, std::string("SELECT ") + kSummaryColumns +
                      " FROM summaries WHERE sid = ? AND filter_key = ? ORDER BY up_to_seq DESC LIMIT 1");
    row.args(sid, or_empty(filter_key));
    if (!row.step()) return std::nullopt;
    if (out) emit_summary_row(row, *out);
    return row.i64(3);
}

// from_seq continues after the previous summary of the same filter key; the
// covered count is the caller's, or the visible events of the range.
void summary_put(Db& db, const mnemo_summary_put_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    mnemo_str filter_key = or_empty(req.filter_key);
    int64_t from_seq = latest_summary(db, meta.sid, filter_key, nullptr).value_or(0) + 1;
    int64_t up_to_seq = req.up_to_seq != 0 ? req.up_to_seq : meta.last_seq;
    if (up_to_seq < from_seq || up_to_seq > meta.last_seq)
        throw StoreError(MNEMO_E_INVALID, "summary up_to_seq " + std::to_string(up_to_seq) + " of " +
                                              describe(req.key) + " must be within " + std::to_string(from_seq) + ".." +
                                              std::to_string(meta.last_seq) +
                                              " (after the previous summary, at most the last seq)");
    int64_t covered =
        req.events_covered >= 0 ? req.events_covered : count_visible(db, meta.sid, filter_key, from_seq, up_to_seq);
    mnemo_summary summary{filter_key, or_empty(req.text),  from_seq, up_to_seq, covered,
                          req.now_us, or_empty(req.source)};
    Query(db,
          "INSERT INTO summaries (sid, filter_key, up_to_seq, from_seq, events_covered, text, created_at, source) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .args(meta.sid, summary.filter_key, up_to_seq, from_seq, covered, summary.text, req.now_us, summary.source)
        .run();
    mark_written(meta, req.now_us);
    save_session(db, meta);
    out.summary(summary);
    out.result(Version{meta.version});
}

// The extraction cursor is bookkeeping, not a client's write: version,
// updated_at and expires_at stay.
void session_extracted(Db& db, const mnemo_extracted_req& req) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    if (meta.extracted_seq != req.from_seq)
        throw StoreError(MNEMO_E_CONFLICT, "the extraction cursor of " + describe(req.key) + " is at seq " +
                                               std::to_string(meta.extracted_seq) + ", not " +
                                               std::to_string(req.from_seq) + ": another extraction moved it");
    if (req.up_to_seq < req.from_seq || req.up_to_seq > meta.last_seq)
        throw StoreError(MNEMO_E_INVALID, "extraction up_to_seq " + std::to_string(req.up_to_seq) + " of " +
                                              describe(req.key) + " must be within " + std::to_string(req.from_seq) +
                                              ".." + std::to_string(meta.last_seq) +
                                              " (from the cursor up to the last seq)");
    Query(db, "UPDATE sessions SET extracted_seq = ? WHERE sid = ?").args(req.up_to_seq, meta.sid).run();
}

void summary_list(Db& db, const mnemo_summary_list_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    Query rows(db, std::string("SELECT ") + kSummaryColumns +
                       " FROM summaries AS s WHERE sid = ? AND up_to_seq = (SELECT MAX(up_to_seq) FROM summaries "
                       "WHERE sid = s.sid AND filter_key = s.filter_key) ORDER BY filter_key");
    rows.args(meta.sid);
    while (rows.step()) emit_summary_row(rows, out);
}

// Tracks refresh the session's TTL but are not versioned writes.
void track_append(Db& db, const mnemo_track_append_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    int64_t seq = 0;
    {
        Query next(db, "SELECT COALESCE(MAX(seq), 0) + 1 FROM track_events WHERE sid = ? AND track = ?");
        next.args(meta.sid, req.track);
        next.step();
        seq = next.i64(0);
    }
    mnemo_track_event track{seq, req.payload_json, req.timestamp_us};
    Query(db, "INSERT INTO track_events (sid, track, seq, payload, timestamp_us) VALUES (?, ?, ?, ?, ?)")
        .args(meta.sid, req.track, track.seq, req.payload_json, req.timestamp_us)
        .run();
    if (meta.ttl_us > 0) {
        meta.expires_at_us = req.now_us + meta.ttl_us;
        save_session(db, meta);
    }
    out.track(track);
}

void track_list(Db& db, const mnemo_track_list_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    Query rows(db,
               "SELECT seq, payload, timestamp_us FROM track_events WHERE sid = ? AND track = ? AND seq > ? "
               "ORDER BY seq LIMIT ?");
    rows.args(meta.sid, req.track, req.after_seq, req.limit > 0 ? req.limit : std::numeric_limits<int64_t>::max());
    while (rows.step()) out.track(mnemo_track_event{rows.i64(0), rows.str(1), rows.i64(2)});
}

// The tracks of a session with their counts, by name: the latest event of each
// is found by its seq (the primary key), so a client timestamp that runs
// backwards does not make another event the last.
void session_tracks(Db& db, const mnemo_session_tracks_req& req, Output& out) {
    require_memory_limit("track name list", req.limit);
    SessionMeta meta = require_live(db, req.key, req.now_us);
    Query rows(db,
               "SELECT g.track, g.n, g.last_seq, e.timestamp_us FROM (SELECT track, COUNT(*) AS n, MAX(seq) AS "
               "last_seq FROM track_events WHERE sid = ? AND track > ? GROUP BY track ORDER BY track LIMIT ?) AS g "
               "JOIN track_events AS e ON e.sid = ? AND e.track = g.track AND e.seq = g.last_seq ORDER BY g.track");
    rows.args(meta.sid, or_empty(req.after_track), req.limit, meta.sid);
    while (rows.step()) out.track_info(mnemo_track_info{rows.str(0), rows.i64(1), rows.i64(2), rows.i64(3)});
}

}  // namespace mnemo::sqlcore
