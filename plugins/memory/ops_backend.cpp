// Opening, closing, pinging and counting the store.
#include "emit.h"
#include "errors.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

// The memory backend has no options; whatever storage.options holds is ignored.
int open_backend(const char* /*options_json*/, mnemo_backend** out, mnemo_error* err) {
    if (!out) return fail(err, MNEMO_E_INVALID, "memory backend: open needs an output handle");
    *out = new mnemo_backend();
    return MNEMO_OK;
}

void close_backend(mnemo_backend* backend) {
    delete backend;
}

int ping(mnemo_backend* /*backend*/, mnemo_error* /*err*/) {
    return MNEMO_OK;
}

int stats(mnemo_backend* backend, const mnemo_stats_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    int64_t sessions = 0, events = 0;
    for (const auto& [app_name, app] : store.apps) {
        for (const auto& [user_name, user] : app.users) {
            for (const auto& [id, session] : user.sessions) {
                if (!session->visible(req->now_us)) continue;
                ++sessions;
                events += session->events.visible_count();
            }
        }
    }
    emit_count(sink, "sessions", sessions);
    emit_count(sink, "events", events);
    emit_count(sink, "lanes", static_cast<int64_t>(store.lanes_by_update.size()));
    return MNEMO_OK;
}

}  // namespace mnemo::memory
