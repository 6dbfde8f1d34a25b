// The C face of the postgres backend: the server plugins' ABI table
// (sql/server_plugin.h) with this backend's search, sweep lock and check.
#include "check.h"
#include "host_services.h"
#include "locks.h"
#include "postgres_store.h"
#include "ops.h"
#include "server_plugin.h"

namespace mnemo::postgres {
namespace {

void sweep_locked(Store& store, const mnemo_sink* sink, const sqlcore::LockedStep& step) {
    write_locked(store, kSweepLock, sink, step);
}

const mnemo_storage_ops kOps =
    sqlcore::server_storage_ops<mnemo_backend, host::install, &search, &sweep_locked, &check>();

const mnemo_plugin kPlugin =
    sql_plugin(MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SHARED | MNEMO_CAP_SEARCH, &kOps);

}  // namespace
}  // namespace mnemo::postgres

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &mnemo::postgres::kPlugin;
}
