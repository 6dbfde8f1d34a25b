// The memory plugin as the host of the shared lifecycle tests: every open()
// is a new, empty store (the plugin keeps nothing across close).
#include "lifecycle/lifecycle_fixture.h"
#include "core/plugin_host.h"
#include "memory_fixture.h"

namespace mnemo::lifecycle_test {

namespace {

class MemoryHost final : public BackendHost {
public:
    MemoryHost() : plugin_(memory_test::load_plugin("mnemo_memory.so")) {}
    const mnemo_storage_ops& ops() const override { return *plugin_.descriptor->ops; }
    mnemo_backend* open() override {
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), "{}", &backend, &err), MNEMO_OK) << err.message;
        return backend;
    }
    bool persistent() const override { return false; }

private:
    memory_test::Plugin plugin_;
};

}  // namespace

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<MemoryHost>();
}

}  // namespace mnemo::lifecycle_test
