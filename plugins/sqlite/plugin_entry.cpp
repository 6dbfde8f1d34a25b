// The C face of the sqlite backend: the SQL core's ABI table
// (sql/plugin_table.h) with this backend's search and its async append,
// which queues the step for the writer's next group commit.
#include "host_services.h"
#include "ops.h"
#include "plugin_table.h"
#include "sqlite_store.h"

#include <memory>

namespace mnemo::sqlite {
namespace {

// SQLite's memory statistics take a process-wide mutex on every allocation,
// and nothing reads them. Only possible before SQLite is first used in the
// process (parsing the options already uses it); later (another user of
// SQLite opened it) the call just fails.
void turn_off_memory_statistics() {
    static const int once = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)once;
}

const mnemo_storage_ops kCoreOps = sql_storage_ops<mnemo_backend, host::install, &search>();

int op_open(const mnemo_host* host, const char* options_json, mnemo_backend** out, mnemo_error* err) {
    turn_off_memory_statistics();
    return kCoreOps.open(host, options_json, out, err);
}

// The host keeps req, result, sink and err alive until done (mnemo_plugin.h).
// Each run of the step starts from an empty outcome, as Store clears its
// recorded rows.
int op_append_async(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                    const mnemo_sink* sink, mnemo_error* err, mnemo_done_fn done, void* done_ctx) {
    return guarded<mnemo_backend>(err, [&] {
        auto outcome = std::make_shared<AppendOutcome>();
        Store::Step step = [req, outcome](sqlcore::Db& conn, Output& out) {
            *outcome = AppendOutcome{};
            events_append(conn, *req, *outcome, out);
        };
        write_async(backend->store, sink, std::move(step),
                    [req, result, err, outcome, done, done_ctx](const std::exception_ptr& failure) {
                        int status = MNEMO_OK;
                        if (failure)
                            status = status_of(failure, err, mnemo_backend::kEngine);
                        else
                            copy_append_result(*req, *outcome, *result);
                        done(done_ctx, status);
                    });
    });
}

mnemo_storage_ops sqlite_ops() {
    mnemo_storage_ops ops = kCoreOps;
    ops.open = op_open;
    ops.events_append_async = op_append_async;
    return ops;
}

const mnemo_storage_ops kOps = sqlite_ops();

const mnemo_plugin kPlugin = sql_plugin(MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SEARCH, &kOps);

}  // namespace
}  // namespace mnemo::sqlite

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &mnemo::sqlite::kPlugin;
}
