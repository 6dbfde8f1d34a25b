// The memory plugin as the host of the shared backend tests: every open()
// is a new, empty store (the plugin keeps nothing across close).
#include "backend/backend_fixture.h"
#include "core/plugin_host.h"

#include <gtest/gtest.h>

namespace mnemo::backend_test {

namespace {

class MemoryHost final : public BackendHost {
public:
    const mnemo_storage_ops& ops() const override { return *plugin("mnemo_memory.so").ops; }
    mnemo_backend* open() override {
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), "{}", &backend, &err), MNEMO_OK) << err.message;
        return backend;
    }
    bool persistent() const override { return false; }
};

}  // namespace

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<MemoryHost>();
}

}  // namespace mnemo::backend_test
