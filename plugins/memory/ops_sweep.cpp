// One bounded step of the expiry sweep: each part walks its own ordered
// index from the front and stops at the first row not yet due or at the
// limit, so a step costs O(rows handled), never O(live rows).
#include "emit.h"
#include "errors.h"
#include "lanes.h"
#include "lifecycle.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

namespace {

// The records around a stored session.
SessionRef ref_of(Store& store, SessionRec& session) {
    AppRec* app = find_app(store, session.app);
    return SessionRef{app, &app->users.find(session.user)->second, &session};
}

// Counts one part's rows against the step's limit.
struct Budget {
    int64_t limit;
    bool hit = false;
    bool allows(int64_t done) {
        if (done < limit) return true;
        hit = true;
        return false;
    }
};

int64_t expire_sessions(Store& store, int64_t now_us, Budget& budget) {
    int64_t done = 0;
    while (!store.expiring.empty() && store.expiring.begin()->first <= now_us && budget.allows(done)) {
        soft_delete_session(store, ref_of(store, *store.expiring.begin()->second), now_us, MNEMO_FINALIZE_EXPIRED);
        ++done;
    }
    return done;
}

int64_t expire_scopes(Store& store, int64_t now_us, Budget& budget) {
    int64_t done = 0;
    for (Scope* scope; (scope = store.scope_expiries.first_due(now_us)) && budget.allows(done); ++done) {
        scope->entries.clear();
        scope->bytes = 0;
        store.scope_expiries.set(*scope, 0);
    }
    return done;
}

int64_t purge_sessions(Store& store, int64_t before_us, Budget& budget) {
    int64_t done = 0;
    while (!store.purgeable.empty() && store.purgeable.begin()->first < before_us && budget.allows(done)) {
        purge_session(store, ref_of(store, *store.purgeable.begin()->second));
        ++done;
    }
    return done;
}

int64_t purge_events(Store& store, int64_t before_us, Budget& budget) {
    int64_t done = 0;
    auto& index = store.deleted_events;
    while (!index.empty() && std::get<0>(*index.begin()) < before_us && budget.allows(done)) {
        auto [deleted_at, session, seq] = *index.begin();
        session->events.purge_deleted(seq);
        index.erase(index.begin());
        ++done;
    }
    return done;
}

int64_t prune_lanes(Store& store, int64_t before_us, Budget& budget) {
    int64_t done = 0;
    auto& index = store.lanes_by_update;
    while (!index.empty() && index.begin()->first < before_us && budget.allows(done)) {
        const LaneRec& lane = *index.begin()->second;
        const std::string name = lane.lane;  // the row dies with the removal
        remove_lane(store, *find_app(store, lane.app), name);
        ++done;
    }
    return done;
}

}  // namespace

int sweep_step(mnemo_backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err) {
    if (req->limit <= 0)
        return fail(err, MNEMO_E_INVALID, "sweep limit is %lld; give at least 1 row per step (sweep.batch)",
                    static_cast<long long>(req->limit));
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    Budget budget{req->limit};
    mnemo_sweep_result result{};
    result.expired = expire_sessions(store, req->now_us, budget);
    result.state_scopes = expire_scopes(store, req->now_us, budget);
    const int64_t purge_before = req->purge_before_us;
    result.purged_sessions = purge_before > 0 ? purge_sessions(store, purge_before, budget) : 0;
    result.purged_events = purge_before > 0 ? purge_events(store, purge_before, budget) : 0;
    const int64_t prune_before = req->prune_lanes_before_us;
    result.pruned_lanes = prune_before > 0 ? prune_lanes(store, prune_before, budget) : 0;
    result.more = budget.hit ? 1 : 0;
    emit_result<&mnemo_sink::swept>(sink, &result);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
