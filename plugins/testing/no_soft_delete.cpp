// mnemo_no_soft_delete.so: a start-up test fixture. The memory backend's
// working table under a descriptor that does not declare
// MNEMO_CAP_SOFT_DELETE, so mnemod must refuse storage.soft_delete: true
// with it and start with storage.soft_delete: false.
#include "ops.h"

namespace {

const mnemo_plugin kDescriptor = {
    MNEMO_PLUGIN_ABI_VERSION,     "no_soft_delete", "0.0.0-test", MNEMO_CAP_NONBLOCKING | MNEMO_CAP_SEARCH,
    mnemo::memory::storage_ops(),
};

}  // namespace

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &kDescriptor;
}
