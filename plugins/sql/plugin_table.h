// plugin_table.h -- the C face both SQL plugins share: the ABI table whose
// entries route each request to the backend store's read or write with the
// SQL core's step (sql_ops.h), and turn any exception into a filled
// mnemo_error. A plugin takes sql_storage_ops<mnemo_backend>() and replaces
// the entries it runs its own way (sqlite: the async append; mysql: the
// locked sweep, the claiming finalize list, the buffered export).
//
// Backend is the plugin's mnemo_backend (sql_store.h): kEngine names it in
// messages, install_host(host) keeps the host's services for the plugin (its
// host_services.h; the core itself sees only the ABI header), then
// Backend(options_json) opens it, and its `store` has read(sink, step),
// write(sink, step) and ping(), a step taking (Db&, Output&).
#pragma once

#include "sql_ops.h"
#include "sql_store.h"
#include "store_error.h"
#include "transcript_ranking.h"

#include <exception>

namespace mnemo::sqlcore {

// The ABI status of an exception thrown by a step, with err filled.
int status_of(const std::exception_ptr& failure, mnemo_error* err, const char* engine);
void copy_append_result(const mnemo_append_req& req, const AppendOutcome& outcome, mnemo_append_result& result);
// Thrown by open() when the host handed no services, or older ones.
[[noreturn]] void throw_missing_host(const char* engine);

template <typename Backend, typename Body>
int guarded(mnemo_error* err, Body&& body) {
    try {
        body();
        return MNEMO_OK;
    } catch (...) {
        return status_of(std::current_exception(), err, Backend::kEngine);
    }
}

template <typename Backend, typename Req, typename Step>
int read_op(Backend* backend, const Req* req, const mnemo_sink* sink, mnemo_error* err, Step step) {
    return guarded<Backend>(
        err, [&] { backend->store.read(sink, [&](auto& conn, Output& out) { step(conn, *req, out); }); });
}

// The write steps hold nothing of this frame by reference: a store may queue
// them and return before they run (sqlite's write_async).
template <typename Backend, typename Req, typename Step>
int write_op(Backend* backend, const Req* req, const mnemo_sink* sink, mnemo_error* err, Step step) {
    return guarded<Backend>(
        err, [&] { backend->store.write(sink, [req, step](auto& conn, Output& out) { step(conn, *req, out); }); });
}

template <typename Backend, typename Req, typename Step>
int silent_write_op(Backend* backend, const Req* req, mnemo_error* err, Step step) {
    return guarded<Backend>(
        err, [&] { backend->store.write(nullptr, [req, step](auto& conn, Output&) { step(conn, *req); }); });
}

#define MNEMO_SQL_READ(name, Req) \
    [](Backend* b, const Req* r, const mnemo_sink* s, mnemo_error* e) { return read_op(b, r, s, e, &name); }
#define MNEMO_SQL_WRITE(name, Req) \
    [](Backend* b, const Req* r, const mnemo_sink* s, mnemo_error* e) { return write_op(b, r, s, e, &name); }
#define MNEMO_SQL_SILENT_WRITE(name, Req) \
    [](Backend* b, const Req* r, mnemo_error* e) { return silent_write_op(b, r, e, &name); }

// A backend's own step, over its own connection: the store runs every step
// on one of its connections, handed over as the Db it implements.
template <typename Conn, typename Req>
void on_own_connection(void (*step)(Conn&, const Req&, Output&), Db& db, const Req& req, Output& out) {
    step(static_cast<Conn&>(db), req, out);
}

// search_step is the backend's own search (its index differs per engine).
template <typename Backend, auto install_host, auto search_step>
mnemo_storage_ops sql_storage_ops() {
    mnemo_storage_ops ops{};
    ops.ops_size = sizeof(mnemo_storage_ops);
    ops.open = [](const mnemo_host* host, const char* options_json, Backend** out, mnemo_error* err) {
        return guarded<Backend>(err, [&] {
            if (!install_host(host)) throw_missing_host(Backend::kEngine);
            *out = new Backend(options_json);
        });
    };
    ops.close = [](Backend* backend) { delete backend; };
    ops.ping = [](Backend* backend, mnemo_error* err) { return guarded<Backend>(err, [&] { backend->store.ping(); }); };
    ops.stats = MNEMO_SQL_READ(stats, mnemo_stats_req);
    ops.session_create = MNEMO_SQL_WRITE(session_create, mnemo_session_create_req);
    ops.session_get = MNEMO_SQL_READ(session_get, mnemo_session_get_req);
    ops.session_list = MNEMO_SQL_READ(session_list, mnemo_session_list_req);
    ops.session_delete = MNEMO_SQL_WRITE(session_delete, mnemo_session_delete_req);
    ops.user_purge = MNEMO_SQL_WRITE(user_purge, mnemo_user_purge_req);
    ops.events_append = [](Backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                           const mnemo_sink* sink, mnemo_error* err) {
        return guarded<Backend>(err, [&] {
            AppendOutcome outcome;
            backend->store.write(sink, [&](auto& conn, Output& out) {
                outcome = AppendOutcome{};  // each run starts afresh, as the store clears its recorded rows
                events_append(conn, *req, outcome, out);
            });
            copy_append_result(*req, outcome, *result);
        });
    };
    ops.events_list = MNEMO_SQL_READ(events_list, mnemo_events_list_req);
    ops.events_rewrite = MNEMO_SQL_WRITE(events_rewrite, mnemo_rewrite_req);
    ops.events_rewind = MNEMO_SQL_WRITE(events_rewind, mnemo_rewind_req);
    ops.state_patch = MNEMO_SQL_WRITE(state_patch, mnemo_state_patch_req);
    ops.state_get = MNEMO_SQL_READ(state_get, mnemo_state_get_req);
    ops.state_delete = MNEMO_SQL_SILENT_WRITE(state_delete, mnemo_state_delete_req);
    ops.summary_put = MNEMO_SQL_WRITE(summary_put, mnemo_summary_put_req);
    ops.summary_list = MNEMO_SQL_READ(summary_list, mnemo_summary_list_req);
    ops.track_append = MNEMO_SQL_WRITE(track_append, mnemo_track_append_req);
    ops.track_list = MNEMO_SQL_READ(track_list, mnemo_track_list_req);
    ops.lane_get = MNEMO_SQL_READ(lane_get, mnemo_lane_get_req);
    ops.lane_write = MNEMO_SQL_WRITE(lane_write, mnemo_lane_write_req);
    ops.lane_list = MNEMO_SQL_READ(lane_list, mnemo_lane_list_req);
    ops.lane_recover = MNEMO_SQL_WRITE(lane_recover, mnemo_lane_recover_req);
    ops.sweep_step = MNEMO_SQL_WRITE(sweep_step, mnemo_sweep_req);
    ops.finalize_list = MNEMO_SQL_READ(finalize_list, mnemo_finalize_list_req);
    ops.finalize_done = MNEMO_SQL_WRITE(finalize_done, mnemo_finalize_done_req);
    ops.search = [](Backend* b, const mnemo_search_req* r, const mnemo_sink* s, mnemo_error* e) {
        return read_op(b, r, s, e, [b](Db& db, const mnemo_search_req& req, Output& out) {
            if (search_from_index(db, b->transcript_cache, req, out)) return;
            on_own_connection(search_step, db, req, out);
        });
    };
    // Records go straight to the host: replaced where a read may run twice.
    ops.export_step = [](Backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink,
                         mnemo_error* err) {
        return guarded<Backend>(
            err, [&] { backend->store.read(nullptr, [&](auto& conn, Output&) { export_step(conn, *req, *sink); }); });
    };
    // An import may replace an event leaving its session's numbers as they
    // were (transcript_cache.h).
    ops.import_records = [](Backend* b, const mnemo_import_req* r, mnemo_error* e) {
        const int status = silent_write_op(b, r, e, &import_records);
        b->transcript_cache.forget_all();
        return status;
    };
    ops.finalize_done_batch = MNEMO_SQL_WRITE(finalize_done_batch, mnemo_finalize_done_batch_req);
    ops.memory_write = MNEMO_SQL_WRITE(memory_write, mnemo_memory_write_req);
    ops.memory_get = MNEMO_SQL_READ(memory_get, mnemo_memory_get_req);
    ops.memory_patch = MNEMO_SQL_WRITE(memory_patch, mnemo_memory_patch_req);
    ops.memory_delete = [](Backend* b, const mnemo_memory_delete_req* r, const mnemo_sink*, mnemo_error* e) {
        return silent_write_op(b, r, e, &memory_delete);
    };
    ops.memory_list = MNEMO_SQL_READ(memory_list, mnemo_memory_list_req);
    ops.memory_search = [](Backend* b, const mnemo_memory_search_req* r, const mnemo_sink* s, mnemo_error* e) {
        return read_op(b, r, s, e, [b](Db& db, const mnemo_memory_search_req& req, Output& out) {
            memory_search(db, b->recall_cache, req, out);
        });
    };
    ops.memory_keys = MNEMO_SQL_READ(memory_keys, mnemo_memory_keys_req);
    ops.memory_candidates = MNEMO_SQL_READ(memory_candidates, mnemo_memory_candidates_req);
    ops.memory_changes = MNEMO_SQL_READ(memory_changes, mnemo_memory_changes_req);
    ops.memory_embed = MNEMO_SQL_WRITE(memory_embed, mnemo_memory_embed_req);
    ops.memory_pending = MNEMO_SQL_READ(memory_pending, mnemo_memory_pending_req);
    ops.memory_reembed = MNEMO_SQL_WRITE(memory_reembed, mnemo_memory_reembed_req);
    ops.memory_count = MNEMO_SQL_READ(memory_count, mnemo_memory_count_req);
    ops.session_extracted = [](Backend* b, const mnemo_extracted_req* r, const mnemo_sink*, mnemo_error* e) {
        return silent_write_op(b, r, e, &session_extracted);
    };
    ops.app_list = MNEMO_SQL_READ(app_list, mnemo_app_list_req);
    ops.user_list = MNEMO_SQL_READ(user_list, mnemo_user_list_req);
    ops.session_tracks = MNEMO_SQL_READ(session_tracks, mnemo_session_tracks_req);
    return ops;
}

// A SQL plugin's descriptor, named as its messages name it.
inline mnemo_plugin sql_plugin(uint32_t capabilities, const mnemo_storage_ops* ops) {
    return mnemo_plugin{MNEMO_PLUGIN_ABI_VERSION, mnemo_backend::kEngine, "0.1.0", capabilities, ops};
}

}  // namespace mnemo::sqlcore
