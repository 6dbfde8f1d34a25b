// The session lifecycle: one bounded step of the expiry sweep and the list
// of sessions waiting for finalize (their outcomes are recorded by
// ops_finalize.cpp). Every statement that picks rows is an index range scan
// over exactly the rows due (each dialect's hot_queries.h), so a step costs
// O(rows handled), never O(live rows).
//
// Where several processes share the database (mysql) the sweep runs under a
// named server lock (that backend's plugin_entry.cpp), and finalize_list
// claims what it lists for this backend instance for kFinalizeLeaseUs
// (Dialect::claim_finalize), so two processes never run the finalize hook of
// one session; a claim whose holder died lapses and the session is listed
// again.
#include "finalize_rows.h"
#include "memory_rows.h"
#include "columns.h"
#include "dialect.h"
#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"

#include <vector>

namespace mnemo::sqlcore {
namespace {

constexpr int64_t kFinalizeLeaseUs = 60 * 1'000'000;

// A part "hit the limit" when it handled limit rows and another row is
// still due; `due_sql` takes (cutoff, 1) and returns a row if so.
bool still_due(Db& db, const char* due_sql, int64_t cutoff_us) {
    Query due(db, due_sql);
    due.args(cutoff_us, int64_t{1});
    return due.step();
}

int64_t expire_sessions(Db& db, const mnemo_sweep_req& req, bool& more) {
    const int64_t done =
        Query(db, db.dialect().expire_sessions).args(req.now_us, req.now_us, req.now_us, req.limit).run();
    if (done == req.limit) more = more || still_due(db, db.dialect().expired_sessions, req.now_us);
    return done;
}

int64_t expire_scopes(Db& db, const mnemo_sweep_req& req, bool& more) {
    struct Due {
        int scope;
        std::string app, user;
    };
    std::vector<Due> due;
    {
        Query rows(db, kExpiredScopesSql);
        rows.args(req.now_us, req.limit + 1);
        while (rows.step()) due.push_back(Due{static_cast<int>(rows.i64(0)), rows.text(1), rows.text(2)});
    }
    if (static_cast<int64_t>(due.size()) > req.limit) {
        more = true;
        due.pop_back();
    }
    for (const Due& scope : due) drop_scope(db, scope.scope, str(scope.app), str(scope.user));
    return static_cast<int64_t>(due.size());
}

int64_t purge_sessions(Db& db, const mnemo_sweep_req& req, bool& more) {
    std::vector<int64_t> sids;
    {
        Query rows(db, db.dialect().purgeable_sessions);
        rows.args(req.purge_before_us, req.limit + 1);
        while (rows.step()) sids.push_back(rows.i64(0));
    }
    if (static_cast<int64_t>(sids.size()) > req.limit) {
        more = true;
        sids.pop_back();
    }
    for (int64_t sid : sids) purge_session(db, sid);
    return static_cast<int64_t>(sids.size());
}

// A DELETE of at most limit rows picked by `sql` (cutoff, limit).
int64_t delete_due(Db& db, const char* sql, const char* due_sql, int64_t cutoff_us, int64_t limit, bool& more) {
    const int64_t done = Query(db, sql).args(cutoff_us, limit).run();
    if (done == limit) more = more || still_due(db, due_sql, cutoff_us);
    return done;
}

void require_sweep_limit(const mnemo_sweep_req& req) {
    if (req.limit <= 0)
        throw StoreError(MNEMO_E_INVALID, "sweep limit is " + std::to_string(req.limit) +
                                              "; give at least 1 row per step (sweep.batch)");
}

}  // namespace

void sweep_step(Db& db, const mnemo_sweep_req& req, Output& out) {
    require_sweep_limit(req);
    bool more = false;
    mnemo_sweep_result result{};
    result.expired = expire_sessions(db, req, more);
    result.state_scopes = expire_scopes(db, req, more);
    const bool purge = req.purge_before_us > 0;
    result.purged_sessions = purge ? purge_sessions(db, req, more) : 0;
    result.purged_events = purge ? delete_due(db, db.dialect().purge_deleted_events, db.dialect().deleted_events_due,
                                              req.purge_before_us, req.limit, more)
                                 : 0;
    const bool prune = req.prune_lanes_before_us > 0;
    result.pruned_lanes = prune ? delete_due(db, db.dialect().prune_lanes, db.dialect().lanes_due,
                                             req.prune_lanes_before_us, req.limit, more)
                                : 0;
    result.expired_memories = sweep_memories(db, req, more);
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

void finalize_list(Db& db, const mnemo_finalize_list_req& req, Output& out) {
    if (req.limit <= 0)
        throw StoreError(MNEMO_E_INVALID,
                         "finalize list limit is " + std::to_string(req.limit) + "; ask for at least 1 session");
    std::vector<int64_t> claimed;
    {
        Query rows(db, db.dialect().finalize_pending);
        rows.args(req.now_us, db.owner_id(), req.limit);
        while (rows.step()) {
            out.finalize_pending(session_row(rows), static_cast<int>(rows.i64(23)), rows.i64(24));
            claimed.push_back(rows.i64(0));
        }
    }
    const char* claim = db.dialect().claim_finalize;
    if (!claim) return;
    for (int64_t sid : claimed) Query(db, claim).args(db.owner_id(), req.now_us + kFinalizeLeaseUs, sid).run();
}

}  // namespace mnemo::sqlcore
