// The sqlite plugin as the host of the shared backend tests: one database
// file in a fresh folder, reopened by every further open().
#include "sqlite_fixture.h"
#include "core/plugin_host.h"

namespace mnemo::backend_test {

namespace {

class SqliteHost final : public BackendHost {
public:
    const mnemo_storage_ops& ops() const override { return *sqlite::test::plugin().ops; }
    mnemo_backend* open() override {
        const std::string options = "{\"path\": \"" + dir_.file("mnemo.db") + "\"}";
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK) << err.message;
        return backend;
    }
    bool persistent() const override { return true; }

private:
    sqlite::test::TempDir dir_;
};

}  // namespace

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<SqliteHost>();
}

}  // namespace mnemo::backend_test
