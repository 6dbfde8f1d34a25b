// server_host.h -- a plugin on a database server (mysql, postgres) as the
// host of the shared backend tests (backend_fixture.h): one database of the
// test process's private server per test, reopened by every further open().
#pragma once

#include "backend/backend_fixture.h"
#include "core/plugin_host.h"

#include <gtest/gtest.h>

#include <string>

namespace mnemo::backend_test {

template <typename Server>
class ServerHost final : public BackendHost {
public:
    ServerHost(Server& server, const mnemo_storage_ops& ops)
        : server_(server), ops_(ops), database_(server.create_database("lifecycle")) {}
    ~ServerHost() override { server_.drop_database(database_); }
    const mnemo_storage_ops& ops() const override { return ops_; }
    mnemo_backend* open() override {
        const std::string options = server_.plugin_options(database_, 2);
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops_.open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK) << err.message;
        return backend;
    }
    bool persistent() const override { return true; }

private:
    Server& server_;
    const mnemo_storage_ops& ops_;
    std::string database_;
};

}  // namespace mnemo::backend_test
