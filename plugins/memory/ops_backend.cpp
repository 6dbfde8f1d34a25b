// Opening, closing, pinging and counting the store.
#include "emit.h"
#include "errors.h"
#include "host_services.h"
#include "ops.h"

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>

namespace mnemo::memory {

// The memory backend has no options; whatever storage.options holds is ignored.
int open_backend(const mnemo_host* host, const char* /*options_json*/, mnemo_backend** out, mnemo_error* err) {
    if (!out) return fail(err, MNEMO_E_INVALID, "memory backend: open needs an output handle");
    if (!host::install(host))
        return fail(err, MNEMO_E_INVALID, "memory backend: open needs the host's services (mnemo_host of ABI %d)",
                    MNEMO_PLUGIN_ABI_VERSION);
    auto backend = std::make_unique<mnemo_backend>();
    const char* hold = std::getenv(SearchIndexer::kHoldEnv);
    try {
        backend->store.indexer.start(hold != nullptr && std::string_view(hold) == "1");
    } catch (const std::system_error& e) {
        return fail(err, MNEMO_E_INTERNAL,
                    "memory backend: cannot start the search indexer thread: %s; "
                    "check the process's thread limit (ulimit -u)",
                    e.what());
    }
    *out = backend.release();
    host::log(MNEMO_LOG_DEBUG, "memory", "opened: sessions live in this process and are gone at exit");
    return MNEMO_OK;
}

// The indexer's thread stops first (Store::indexer); what it had not filed is dropped with the store.
void close_backend(mnemo_backend* backend) {
    delete backend;
}

int ping(mnemo_backend* /*backend*/, mnemo_error* /*err*/) {
    return MNEMO_OK;
}

int stats(mnemo_backend* backend, const mnemo_stats_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    mnemo_stats_result result{};
    for (const auto& [app_name, app] : store.apps) {
        for (const auto& [user_name, user] : app.users) {
            for (const auto& [id, session] : user.sessions) {
                if (!session->visible(req->now_us)) continue;
                ++result.sessions;
                result.events += session->events.visible_count();
            }
        }
    }
    result.lanes = static_cast<int64_t>(store.lanes_by_update.size());
    emit_result<&mnemo_sink::stats>(sink, &result);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
