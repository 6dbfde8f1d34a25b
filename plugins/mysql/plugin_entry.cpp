// The C face of the mysql backend: the ABI table, each entry a thin wrapper
// that routes the request to Store::read or Store::write and turns any
// exception into a filled mnemo_error. The sweep step runs under the
// database's sweep lock; finalize_list is a write because it claims rows.
#include "ops.h"
#include "record_output.h"
#include "mysql_store.h"

#include <cstdio>
#include <new>

namespace mnemo::mysql {
namespace {

void fill_error(mnemo_error* err, int code, const char* message, int64_t current_version) {
    if (!err) return;
    err->code = code;
    err->current_version = current_version;
    std::snprintf(err->message, sizeof err->message, "%s", message);
}

template <typename Body>
int guarded(mnemo_error* err, Body&& body) {
    try {
        body();
        return MNEMO_OK;
    } catch (const StoreError& e) {
        fill_error(err, e.code(), e.what(), e.current_version());
        return e.code();
    } catch (const std::bad_alloc&) {
        fill_error(err, MNEMO_E_INTERNAL, "mysql backend: out of memory", -1);
    } catch (const std::exception& e) {
        fill_error(err, MNEMO_E_INTERNAL, e.what(), -1);
    } catch (...) {
        fill_error(err, MNEMO_E_INTERNAL, "mysql backend: unknown failure", -1);
    }
    return MNEMO_E_INTERNAL;
}

// Adapters from an ops.h step to the Store's Step signature.
// A step takes the backend's Conn or the core's Db (sql_ops.h).
template <typename Req, typename Step>
int read_op(mnemo_backend* backend, const Req* req, const mnemo_sink* sink, mnemo_error* err, Step step) {
    return guarded(err, [&] { backend->store.read(sink, [&](Conn& conn, Output& out) { step(conn, *req, out); }); });
}

template <typename Req, typename Step>
int write_op(mnemo_backend* backend, const Req* req, const mnemo_sink* sink, mnemo_error* err, Step step) {
    return guarded(err, [&] { backend->store.write(sink, [&](Conn& conn, Output& out) { step(conn, *req, out); }); });
}

template <typename Req, typename Step>
int silent_write_op(mnemo_backend* backend, const Req* req, mnemo_error* err, Step step) {
    return guarded(err, [&] { backend->store.write(nullptr, [&](Conn& conn, Output&) { step(conn, *req); }); });
}

int op_open(const char* options_json, mnemo_backend** out, mnemo_error* err) {
    return guarded(err, [&] { *out = new mnemo_backend(parse_options(options_json)); });
}

void op_close(mnemo_backend* backend) {
    delete backend;
}

int op_ping(mnemo_backend* backend, mnemo_error* err) {
    return guarded(err, [&] { backend->store.ping(); });
}

int op_append(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result, const mnemo_sink* sink,
              mnemo_error* err) {
    return guarded(err, [&] {
        AppendOutcome outcome;
        backend->store.write(sink, [&](Conn& conn, Output& out) {
            outcome = AppendOutcome{};
            events_append(conn, *req, outcome, out);
        });
        result->version = outcome.version;
        for (size_t i = 0; i < outcome.seqs.size() && i < req->n_events; ++i) {
            if (result->seqs) result->seqs[i] = outcome.seqs[i];
            if (result->timestamps_us) result->timestamps_us[i] = outcome.timestamps_us[i];
        }
        result->evicted = outcome.evicted;
        result->retried = outcome.retried ? 1 : 0;
        result->created = outcome.created ? 1 : 0;
    });
}

int op_sweep_step(mnemo_backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err) {
    return guarded(err, [&] {
        const std::string lock = lock_name("sweep", backend->store.options().database);
        backend->store.write_locked(lock, sink, [&](Conn& conn, Output& out, bool granted) {
            if (granted) return sweep_step(conn, *req, out);
            if (req->limit <= 0) return sweep_step(conn, *req, out);  // the same INVALID either way
            sweep_skipped(out);
        });
    });
}

// A read may be run again after a lost connection, so records reach the
// host only once the read succeeded.
int op_export(mnemo_backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink, mnemo_error* err) {
    return guarded(err, [&] {
        RecordBuffer buffer;
        backend->store.read(nullptr, [&](Conn& conn, Output&) {
            buffer.clear();
            export_step(conn, *req, buffer.sink());
        });
        buffer.replay(*sink);
    });
}

#define MNEMO_READ(name, Req) \
    [](mnemo_backend* b, const Req* r, const mnemo_sink* s, mnemo_error* e) { return read_op(b, r, s, e, &name); }
#define MNEMO_WRITE(name, Req) \
    [](mnemo_backend* b, const Req* r, const mnemo_sink* s, mnemo_error* e) { return write_op(b, r, s, e, &name); }
#define MNEMO_SILENT_WRITE(name, Req) \
    [](mnemo_backend* b, const Req* r, mnemo_error* e) { return silent_write_op(b, r, e, &name); }

const mnemo_storage_ops kOps = {
    sizeof(mnemo_storage_ops),
    op_open,
    op_close,
    op_ping,
    MNEMO_READ(stats, mnemo_stats_req),
    MNEMO_WRITE(session_create, mnemo_session_create_req),
    MNEMO_READ(session_get, mnemo_session_get_req),
    MNEMO_READ(session_list, mnemo_session_list_req),
    MNEMO_WRITE(session_delete, mnemo_session_delete_req),
    MNEMO_WRITE(user_purge, mnemo_user_purge_req),
    op_append,
    MNEMO_READ(events_list, mnemo_events_list_req),
    MNEMO_WRITE(events_rewrite, mnemo_rewrite_req),
    MNEMO_WRITE(events_rewind, mnemo_rewind_req),
    MNEMO_WRITE(state_patch, mnemo_state_patch_req),
    MNEMO_READ(state_get, mnemo_state_get_req),
    MNEMO_SILENT_WRITE(state_delete, mnemo_state_delete_req),
    MNEMO_WRITE(summary_put, mnemo_summary_put_req),
    MNEMO_READ(summary_list, mnemo_summary_list_req),
    MNEMO_WRITE(track_append, mnemo_track_append_req),
    MNEMO_READ(track_list, mnemo_track_list_req),
    MNEMO_READ(lane_get, mnemo_lane_get_req),
    MNEMO_WRITE(lane_write, mnemo_lane_write_req),
    MNEMO_READ(lane_list, mnemo_lane_list_req),
    MNEMO_WRITE(lane_recover, mnemo_lane_recover_req),
    op_sweep_step,
    MNEMO_WRITE(finalize_list, mnemo_finalize_list_req),
    MNEMO_WRITE(finalize_done, mnemo_finalize_done_req),
    MNEMO_READ(search, mnemo_search_req),
    op_export,
    MNEMO_SILENT_WRITE(import_records, mnemo_import_req),
    MNEMO_WRITE(finalize_done_batch, mnemo_finalize_done_batch_req),
    nullptr,  // events_append_async: every call holds a pooled connection anyway
};

const mnemo_plugin kPlugin = {
    MNEMO_PLUGIN_ABI_VERSION,
    "mysql",
    "0.1.0",
    MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SHARED | MNEMO_CAP_SEARCH,
    &kOps,
};

}  // namespace
}  // namespace mnemo::mysql

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &mnemo::mysql::kPlugin;
}
