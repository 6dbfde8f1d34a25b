// mnemo_bad_abi.so: a loader-test fixture. A complete, working descriptor
// (the memory backend's ops table) whose only fault is abi_version 999, so a
// loader that refuses it is refusing for the version alone.
#include "ops.h"

namespace {

constexpr uint32_t kWrongAbiVersion = 999;

const mnemo_plugin kDescriptor = {
    kWrongAbiVersion,
    "bad_abi",
    "0.0.0-test",
    MNEMO_CAP_NONBLOCKING | MNEMO_CAP_SOFT_DELETE,
    mnemo::memory::storage_ops(),
};

}  // namespace

extern "C" MNEMO_PLUGIN_EXPORT const mnemo_plugin* mnemo_plugin_entry(void) {
    return &kDescriptor;
}
