// Purging everything of one user in one app, soft-deleted or expired rows
// and the user's lanes too.
#include "emit.h"
#include "lanes.h"
#include "lifecycle.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

namespace {

struct PurgeCounts {
    int64_t sessions = 0, events = 0, summaries = 0, tracks = 0, lanes = 0, state_keys = 0;

    void add(const SessionRec& session) {
        ++sessions;
        events += session.events.total_count();
        for (const auto& [key, history] : session.summaries) summaries += static_cast<int64_t>(history.size());
        for (const auto& [name, track] : session.tracks) tracks += static_cast<int64_t>(track.events.size());
    }

    void emit(const mnemo_sink* sink) const {
        const mnemo_purge_result result{sessions, events, summaries, tracks, lanes, state_keys};
        emit_result<&mnemo_sink::purged>(sink, &result);
    }
};

// Counts what the user holds and takes it out of every store-level index.
// A session never finalized is shown to mnemod before it goes, so its
// finalize hook still runs (reason deleted).
bool owes_finalize(const SessionRec& session) {
    return session.finalize_reason == 0 ? session.deleted_at_us == 0 : session.finalize_pending();
}

PurgeCounts detach_user(Store& store, AppRec& app, UserRec& user, const mnemo_sink* sink) {
    PurgeCounts counts;
    for (auto& [id, session] : user.sessions) {
        if (owes_finalize(*session)) emit_session(sink, *session);
        counts.add(*session);
        forget_session(store, SessionRef{&app, &user, session.get()});
    }
    const std::vector<std::string> lanes(user.lanes.begin(), user.lanes.end());
    for (const std::string& lane : lanes) remove_lane(store, app, lane);
    counts.lanes = static_cast<int64_t>(lanes.size());
    counts.state_keys = static_cast<int64_t>(user.state.entries.size());
    store.scope_expiries.forget(user.state);
    return counts;
}

}  // namespace

int user_purge(mnemo_backend* backend, const mnemo_user_purge_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    PurgeCounts counts;
    if (AppRec* app = find_app(store, view(req->app))) {
        auto user = app->users.find(view(req->user));
        if (user != app->users.end()) {
            counts = detach_user(store, *app, user->second, sink);
            app->users.erase(user);
        }
    }
    counts.emit(sink);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
