// mnemo_older_table.so: a loader and lifecycle test fixture. The memory
// backend as a plugin whose table lacks the optional operations (from
// finalize_done_batch on): its ops_size ends at import_records, so mnemod
// must load it and fall back to finalize_done per session.
#include "ops.h"

#include <cstddef>

namespace {

mnemo_storage_ops older_table() {
    mnemo_storage_ops ops = *mnemo::memory::storage_ops();
    ops.ops_size = offsetof(mnemo_storage_ops, finalize_done_batch);
    ops.finalize_done_batch = nullptr;  // never read by a host that honours ops_size
    return ops;
}

const mnemo_storage_ops kOps = older_table();

const mnemo_plugin kDescriptor = {
    MNEMO_PLUGIN_ABI_VERSION, "older_table", "0.0.0-test", MNEMO_CAP_NONBLOCKING | MNEMO_CAP_SOFT_DELETE, &kOps,
};

}  // namespace

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &kDescriptor;
}
