// The exported entry of mnemo_memory.so: the descriptor mnemod loads.
#include "ops.h"

namespace {

const mnemo_plugin kDescriptor = {
    MNEMO_PLUGIN_ABI_VERSION,     "memory", "0.1.0", MNEMO_CAP_NONBLOCKING | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SEARCH,
    mnemo::memory::storage_ops(),
};

}  // namespace

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &kDescriptor;
}
