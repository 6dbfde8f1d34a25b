/*
 * mysql_daemons.h -- several real mnemod processes on one private MariaDB
 * database (tests/mysql_fixture starts the server once per test process).
 *
 * MysqlDaemons creates a fresh database per test, starts daemons on it with
 * start_daemon(), prints their logs when the test failed and stops them.
 */
#pragma once
#ifdef MNEMO_INTEGRATION_MYSQL

#include "fixture.h"
#include "mariadb_server.h"

#include <memory>
#include <string>
#include <vector>

namespace mnemo::integration {

class StopMariadbAtExit : public ::testing::Environment {
public:
    void TearDown() override { mysql_fixture::stop_shared_server(); }
};
// One registration per test process, whichever test files include this.
inline const auto* const kStopMariadbAtExit = ::testing::AddGlobalTestEnvironment(new StopMariadbAtExit);

// mnemod on `database` of the shared server; sections are more top-level YAML sections.
inline std::string mysql_config(const std::string& database, const std::string& sections = "") {
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n  idle_timeout: 2s\n"
           "storage:\n  plugin: mysql\n  plugin_dir: @PLUGIN_DIR@\n  options: " +
           mysql_fixture::shared_server().yaml_options(database, 8) +
           "\nlimits:\n  event_limit: 0\nsummary:\n  enabled: false\nlog: {level: debug}\n" + sections;
}

class MysqlDaemons : public ::testing::Test {
protected:
    void SetUp() override {
        std::string error;
        auto& server = mysql_fixture::shared_server();
        if (!server.running()) {
            ASSERT_TRUE(server.start(&error)) << error;
        }
        database_ = server.create_database("integ");
    }
    void TearDown() override {
        for (auto& daemon : daemons_) {
            if (HasFailure())
                std::fprintf(stderr, "---- mnemod log (port %d) ----\n%s\n", daemon->port(), daemon->log().c_str());
            daemon->stop();
        }
    }
    DaemonProcess& start_daemon(const std::string& sections = "") {
        daemons_.push_back(std::make_unique<DaemonProcess>(mysql_config(database_, sections)));
        std::string error;
        EXPECT_TRUE(daemons_.back()->start(&error)) << error;
        return *daemons_.back();
    }

    std::vector<std::unique_ptr<DaemonProcess>> daemons_;
    std::string database_;
};

}  // namespace mnemo::integration

#endif  // MNEMO_INTEGRATION_MYSQL
