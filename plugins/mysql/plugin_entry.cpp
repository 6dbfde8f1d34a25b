// The C face of the mysql backend: the SQL core's ABI table
// (sql/plugin_table.h) with this backend's search, a coordinated sweep step
// (a shared store, mnemo_sweep_req.coordinate) under the database's sweep
// lock, finalize_list as a write (it claims rows), and an export whose
// records wait until the read succeeded.
#include "host_services.h"
#include "mysql_store.h"
#include "ops.h"
#include "plugin_table.h"
#include "record_buffer.h"

namespace mnemo::mysql {
namespace {

int op_sweep_step(mnemo_backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err) {
    return guarded<mnemo_backend>(err, [&] {
        if (!req->coordinate) {
            backend->store.write(sink, [&](sqlcore::Db& conn, Output& out) { sweep_step(conn, *req, out); });
            return;
        }
        write_locked(backend->store, "sweep", sink, [&](Conn& conn, Output& out, bool granted) {
            if (granted) return sweep_step(conn, *req, out);
            if (req->limit <= 0) return sweep_step(conn, *req, out);  // the same INVALID either way
            sweep_skipped(out);
        });
    });
}

// A read may be run again after a lost connection, so records reach the
// host only once the read succeeded.
int op_export(mnemo_backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink, mnemo_error* err) {
    return guarded<mnemo_backend>(err, [&] {
        RecordBuffer buffer;
        backend->store.read(nullptr, [&](sqlcore::Db& conn, Output&) {
            buffer.clear();
            export_step(conn, *req, buffer.sink());
        });
        buffer.replay(*sink);
    });
}

mnemo_storage_ops mysql_ops() {
    mnemo_storage_ops ops = sql_storage_ops<mnemo_backend, host::install, &search>();
    ops.sweep_step = op_sweep_step;
    ops.finalize_list = [](mnemo_backend* b, const mnemo_finalize_list_req* r, const mnemo_sink* s, mnemo_error* e) {
        return write_op(b, r, s, e, &finalize_list);
    };
    ops.export_step = op_export;
    return ops;
}

const mnemo_storage_ops kOps = mysql_ops();

const mnemo_plugin kPlugin =
    sql_plugin(MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SHARED | MNEMO_CAP_SEARCH, &kOps);

}  // namespace
}  // namespace mnemo::mysql

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &mnemo::mysql::kPlugin;
}
