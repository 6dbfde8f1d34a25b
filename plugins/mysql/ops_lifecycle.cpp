// The session lifecycle: one bounded step of the expiry sweep and the list
// of sessions waiting for finalize (their outcomes are recorded by
// sql_common/ops_finalize.cpp). Every statement that picks rows is an index
// range scan over exactly the rows due (hot_queries.h), so a step costs
// O(rows handled), never O(live rows).
//
// Several processes may share the database: the sweep runs under a named
// server lock (plugin_entry.cpp), and finalize_list claims what it lists for
// this backend instance for kFinalizeLeaseUs, so two processes never run the
// finalize hook of one session; a claim whose holder died lapses and the
// session is listed again.
#include "finalize_rows.h"
#include "hot_queries.h"
#include "ops.h"
#include "session_rows.h"
#include "state_rows.h"

#include <vector>

namespace mnemo::mysql {
namespace {

constexpr int64_t kFinalizeLeaseUs = 60 * 1'000'000;

// A part "hit the limit" when it handled limit rows and another row is
// still due; `due_sql` takes (cutoff, 1) and returns a row if so.
bool still_due(Conn& conn, const char* due_sql, int64_t cutoff_us) {
    Query due(conn, due_sql);
    due.args(cutoff_us, int64_t{1});
    return due.step();
}

int64_t expire_sessions(Conn& conn, const mnemo_sweep_req& req, bool& more) {
    const int64_t done = Query(conn, kExpireSessionsSql).args(req.now_us, req.now_us, req.now_us, req.limit).run();
    if (done == req.limit) more = more || still_due(conn, kExpiredSessionsSql, req.now_us);
    return done;
}

int64_t expire_scopes(Conn& conn, const mnemo_sweep_req& req, bool& more) {
    struct Due {
        int scope;
        std::string app, user;
    };
    std::vector<Due> due;
    {
        Query rows(conn, kExpiredScopesSql);
        rows.args(req.now_us, req.limit + 1);
        while (rows.step()) due.push_back(Due{static_cast<int>(rows.i64(0)), rows.text(1), rows.text(2)});
    }
    if (static_cast<int64_t>(due.size()) > req.limit) {
        more = true;
        due.pop_back();
    }
    for (const Due& scope : due) drop_scope(conn, scope.scope, str(scope.app), str(scope.user));
    return static_cast<int64_t>(due.size());
}

int64_t purge_sessions(Conn& conn, const mnemo_sweep_req& req, bool& more) {
    std::vector<int64_t> sids;
    {
        Query rows(conn, kPurgeableSessionsSql);
        rows.args(req.purge_before_us, req.limit + 1);
        while (rows.step()) sids.push_back(rows.i64(0));
    }
    if (static_cast<int64_t>(sids.size()) > req.limit) {
        more = true;
        sids.pop_back();
    }
    for (int64_t sid : sids) purge_session(conn, sid);
    return static_cast<int64_t>(sids.size());
}

// A DELETE of at most limit rows picked by `sql` (cutoff, limit).
int64_t delete_due(Conn& conn, const char* sql, const char* due_sql, int64_t cutoff_us, int64_t limit, bool& more) {
    const int64_t done = Query(conn, sql).args(cutoff_us, limit).run();
    if (done == limit) more = more || still_due(conn, due_sql, cutoff_us);
    return done;
}

void require_sweep_limit(const mnemo_sweep_req& req) {
    if (req.limit <= 0)
        throw StoreError(MNEMO_E_INVALID, "sweep limit is " + std::to_string(req.limit) +
                                              "; give at least 1 row per step (sweep.batch)");
}

}  // namespace

void sweep_step(Conn& conn, const mnemo_sweep_req& req, Output& out) {
    require_sweep_limit(req);
    bool more = false;
    mnemo_sweep_result result{};
    result.expired = expire_sessions(conn, req, more);
    result.state_scopes = expire_scopes(conn, req, more);
    const bool purge = req.purge_before_us > 0;
    result.purged_sessions = purge ? purge_sessions(conn, req, more) : 0;
    result.purged_events =
        purge ? delete_due(conn, kPurgeDeletedEventsSql, kDeletedEventsDueSql, req.purge_before_us, req.limit, more)
              : 0;
    const bool prune = req.prune_lanes_before_us > 0;
    result.pruned_lanes =
        prune ? delete_due(conn, kPruneLanesSql, kLanesDueSql, req.prune_lanes_before_us, req.limit, more) : 0;
    result.more = more ? 1 : 0;
    out.result(result);
}

// Another process is sweeping the same database right now; its step covers
// these rows, so this one reports nothing done and nothing more.
void sweep_skipped(Output& out) {
    mnemo_sweep_result result{};
    result.skipped = 1;
    out.result(result);
}

void finalize_list(Conn& conn, const mnemo_finalize_list_req& req, Output& out) {
    if (req.limit <= 0)
        throw StoreError(MNEMO_E_INVALID,
                         "finalize list limit is " + std::to_string(req.limit) + "; ask for at least 1 session");
    std::vector<int64_t> claimed;
    {
        Query rows(conn, kFinalizePendingSql);
        rows.args(req.now_us, conn.owner_id(), req.limit);
        while (rows.step()) {
            out.finalize_pending(session_row(rows), static_cast<int>(rows.i64(22)), rows.i64(23));
            claimed.push_back(rows.i64(0));
        }
    }
    for (int64_t sid : claimed)
        Query(conn, "UPDATE sessions SET finalize_owner = ?, finalize_claim_until = ? WHERE sid = ?")
            .args(conn.owner_id(), req.now_us + kFinalizeLeaseUs, sid)
            .run();
}

}  // namespace mnemo::mysql
