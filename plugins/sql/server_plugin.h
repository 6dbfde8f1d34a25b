// server_plugin.h -- the ABI table of a SQL plugin on a database server that
// several mnemod processes may share (mysql, postgres): the core's table
// (plugin_table.h) with the backend's search, a coordinated sweep step (a
// shared store, mnemo_sweep_req.coordinate) run only by the process that
// holds the database's sweep lock, finalize_list as a write (it claims
// rows), an export whose records wait until the read succeeded (a read
// may be run again after a lost connection), and the check of
// `mnemod --check-config` (server_check.h: check_store connects without
// opening the store and returns what it found).
#pragma once

#include "plugin_table.h"
#include "record_buffer.h"
#include "server_check.h"

#include <functional>

namespace mnemo::sqlcore {

// A write step that learns whether its transaction holds the database's
// sweep lock (granted false: another process holds it).
using LockedStep = std::function<void(Db&, Output&, bool granted)>;
using SweepLocked = void (*)(Store&, const mnemo_sink*, const LockedStep&);
using CheckStore = std::string (*)(const char* options_json);

template <typename Backend, auto install_host, auto search_step, SweepLocked sweep_locked, CheckStore check_store>
mnemo_storage_ops server_storage_ops() {
    mnemo_storage_ops ops = sql_storage_ops<Backend, install_host, search_step>();
    ops.sweep_step = [](Backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err) {
        return guarded<Backend>(err, [&] {
            if (!req->coordinate) {
                backend->store.write(sink, [&](Db& conn, Output& out) { sweep_step(conn, *req, out); });
                return;
            }
            sweep_locked(backend->store, sink, [&](Db& conn, Output& out, bool granted) {
                if (granted) return sweep_step(conn, *req, out);
                if (req->limit <= 0) return sweep_step(conn, *req, out);  // the same INVALID either way
                sweep_skipped(out);
            });
        });
    };
    ops.finalize_list = [](Backend* b, const mnemo_finalize_list_req* r, const mnemo_sink* s, mnemo_error* e) {
        return write_op(b, r, s, e, &finalize_list);
    };
    ops.export_step = [](Backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink,
                         mnemo_error* err) {
        return guarded<Backend>(err, [&] {
            RecordBuffer buffer;
            backend->store.read(nullptr, [&](Db& conn, Output&) {
                buffer.clear();
                export_step(conn, *req, buffer.sink());
            });
            buffer.replay(*sink);
        });
    };
    // The options are read with the host's JSON services, as open() reads them.
    ops.check = [](const mnemo_host* host, const char* options_json, mnemo_check_result* result, mnemo_error* err) {
        return run_check(
            [&] {
                if (!install_host(host)) throw_missing_host(Backend::kEngine);
                return check_store(options_json);
            },
            result, err, Backend::kEngine);
    };
    return ops;
}

}  // namespace mnemo::sqlcore
