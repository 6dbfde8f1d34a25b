// The C face of the sqlite backend: the SQL core's ABI table
// (sql/plugin_table.h) with this backend's search, its async append and
// its queued writes, which hand the step to the writer's next group commit.
#include "host_services.h"
#include "ops.h"
#include "plugin_table.h"
#include "sqlite_store.h"

#include <cstddef>
#include <memory>
#include <string>

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

template <typename Req>
int call_entry(int (*entry)(mnemo_backend*, const Req*, const mnemo_sink*, mnemo_error*), mnemo_backend* backend,
               const void* req, const mnemo_sink* sink, mnemo_error* err) {
    return entry(backend, static_cast<const Req*>(req), sink, err);
}
template <typename Req>
int call_entry(int (*entry)(mnemo_backend*, const Req*, mnemo_error*), mnemo_backend* backend, const void* req,
               const mnemo_sink*, mnemo_error* err) {
    return entry(backend, static_cast<const Req*>(req), err);
}

// The core table's entry for op, if it is one write() write_async can queue
// (events_append is not: it copies its result after the write).
int call_queueable(mnemo_backend* backend, size_t op, const void* req, const mnemo_sink* sink, mnemo_error* err) {
#define MNEMO_QUEUEABLE(name)               \
    case offsetof(mnemo_storage_ops, name): \
        return call_entry(kCoreOps.name, backend, req, sink, err)
    switch (op) {
        MNEMO_QUEUEABLE(session_create);
        MNEMO_QUEUEABLE(session_delete);
        MNEMO_QUEUEABLE(user_purge);
        MNEMO_QUEUEABLE(events_rewrite);
        MNEMO_QUEUEABLE(events_rewind);
        MNEMO_QUEUEABLE(state_patch);
        MNEMO_QUEUEABLE(state_delete);
        MNEMO_QUEUEABLE(summary_put);
        MNEMO_QUEUEABLE(track_append);
        MNEMO_QUEUEABLE(lane_write);
        MNEMO_QUEUEABLE(lane_recover);
        MNEMO_QUEUEABLE(sweep_step);
        MNEMO_QUEUEABLE(finalize_done);
        MNEMO_QUEUEABLE(finalize_done_batch);
        MNEMO_QUEUEABLE(import_records);
        MNEMO_QUEUEABLE(memory_write);
        MNEMO_QUEUEABLE(memory_patch);
        MNEMO_QUEUEABLE(memory_delete);
        MNEMO_QUEUEABLE(memory_embed);
        MNEMO_QUEUEABLE(memory_reembed);
        MNEMO_QUEUEABLE(session_extracted);
        default:
            break;
    }
#undef MNEMO_QUEUEABLE
    return guarded<mnemo_backend>(err, [op] {
        throw StoreError(MNEMO_E_INVALID, "the sqlite backend cannot queue the operation at offset " +
                                              std::to_string(op) + " of the table; call it directly");
    });
}

// Runs the core table's own entry with its write() queued (QueueNextWrite);
// the host keeps req, sink and err alive until done (mnemo_plugin.h).
int op_write_async(mnemo_backend* backend, size_t op, const void* req, const mnemo_sink* sink, mnemo_error* err,
                   mnemo_done_fn done, void* done_ctx) {
    QueueNextWrite queued([err, done, done_ctx](const std::exception_ptr& failure) {
        done(done_ctx, failure ? status_of(failure, err, mnemo_backend::kEngine) : MNEMO_OK);
    });
    int status = call_queueable(backend, op, req, sink, err);
    // An entry that finished without writing has nothing to wait for.
    if (status == MNEMO_OK && !queued.taken()) done(done_ctx, MNEMO_OK);
    return status;
}

mnemo_storage_ops sqlite_ops() {
    mnemo_storage_ops ops = kCoreOps;
    ops.open = op_open;
    ops.events_append_async = op_append_async;
    ops.write_async = op_write_async;
    return ops;
}

const mnemo_storage_ops kOps = sqlite_ops();

const mnemo_plugin kPlugin = sql_plugin(MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SEARCH, &kOps);

}  // namespace
}  // namespace mnemo::sqlite

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &mnemo::sqlite::kPlugin;
}
