// The mysql plugin as the host of the shared backend tests: one database
// per test, reopened by every further open().
#include "core/plugin_host.h"
#include "mysql_backend.h"

namespace mnemo::backend_test {

namespace {

class MysqlHost final : public BackendHost {
public:
    MysqlHost() : database_(mysql::test::server().create_database("lifecycle")) {}
    ~MysqlHost() override { mysql::test::server().drop_database(database_); }
    const mnemo_storage_ops& ops() const override { return mysql::test::ops(); }
    mnemo_backend* open() override {
        const std::string options = mysql::test::server().plugin_options(database_, 2);
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK) << err.message;
        return backend;
    }
    bool persistent() const override { return true; }

private:
    std::string database_;
};

}  // namespace

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<MysqlHost>();
}

}  // namespace mnemo::backend_test
