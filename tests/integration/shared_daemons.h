/*
 * shared_daemons.h -- several real mnemod processes on one database of a
 * private server: MariaDB for the mysql plugin (tests/mysql_fixture),
 * PostgreSQL for the postgres plugin (tests/postgres_fixture), each started
 * once per test process when a test first needs it.
 *
 * SharedDaemons, parameterised by the plugin, creates a fresh database per
 * test, starts daemons on it with start_daemon(), prints their logs when the
 * test failed and stops them; server() takes the database away and brings
 * it back for outage tests.
 */
#pragma once
#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)

#include "fixture.h"
#ifdef MNEMO_INTEGRATION_MYSQL
#include "mariadb_server.h"
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
#include "postgres_server.h"
#endif

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mnemo::integration {

// The plugins of several daemons on one database this binary tests.
inline std::vector<std::string> shared_backends() {
    std::vector<std::string> backends;
#ifdef MNEMO_INTEGRATION_MYSQL
    backends.push_back("mysql");
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    backends.push_back("postgres");
#endif
    return backends;
}

// fn(server) on the private server of `backend`'s database.
template <typename Fn>
auto with_server(const std::string& backend, Fn&& fn) {
#ifdef MNEMO_INTEGRATION_MYSQL
    if (backend == "mysql") return fn(mysql_fixture::shared_server());
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    if (backend == "postgres") return fn(postgres_fixture::shared_server());
#endif
    throw std::invalid_argument("no test server for plugin " + backend);
}

// The database server of one plugin, as the tests drive it.
class DatabaseServer {
public:
    explicit DatabaseServer(std::string backend) : backend_(std::move(backend)) {}
    // Starts it unless it runs; false with *error otherwise.
    bool start(std::string* error) {
        return with_server(backend_, [&](auto& server) { return server.running() || server.start(error); });
    }
    void stop() {
        with_server(backend_, [](auto& server) { server.stop(); });
    }
    std::string create_database(const std::string& prefix) {
        return with_server(backend_, [&](auto& server) { return server.create_database(prefix); });
    }
    std::string yaml_options(const std::string& database, int pool_size) {
        return with_server(backend_, [&](auto& server) { return server.yaml_options(database, pool_size); });
    }
    const std::string& backend() const { return backend_; }

private:
    std::string backend_;
};

class StopDatabaseServersAtExit : public ::testing::Environment {
public:
    void TearDown() override {
#ifdef MNEMO_INTEGRATION_MYSQL
        mysql_fixture::stop_shared_server();
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
        postgres_fixture::stop_shared_server();
#endif
    }
};
// One registration per test process, whichever test files include this.
inline const auto* const kStopDatabaseServersAtExit =
    ::testing::AddGlobalTestEnvironment(new StopDatabaseServersAtExit);

// mnemod with `backend` on `database` of its server; sections are more top-level YAML sections.
inline std::string shared_config(const std::string& backend, const std::string& database,
                                 const std::string& sections = "") {
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n  idle_timeout: 2s\n"
           "storage:\n  plugin: " +
           backend + "\n  plugin_dir: @PLUGIN_DIR@\n  options: " + DatabaseServer(backend).yaml_options(database, 8) +
           "\nlimits:\n  event_limit: 0\nsummary:\n  enabled: false\nlog: {level: debug}\n" + sections;
}

class SharedDaemons : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        std::string error;
        ASSERT_TRUE(server().start(&error)) << error;
        database_ = server().create_database("integ");
    }
    void TearDown() override {
        for (auto& daemon : daemons_) {
            if (HasFailure())
                std::fprintf(stderr, "---- mnemod log (port %d) ----\n%s\n", daemon->port(), daemon->log().c_str());
            daemon->stop();
        }
    }
    DaemonProcess& start_daemon(const std::string& sections = "") {
        daemons_.push_back(std::make_unique<DaemonProcess>(shared_config(GetParam(), database_, sections)));
        std::string error;
        EXPECT_TRUE(daemons_.back()->start(&error)) << error;
        return *daemons_.back();
    }
    DatabaseServer server() const { return DatabaseServer(GetParam()); }

    std::vector<std::unique_ptr<DaemonProcess>> daemons_;
    std::string database_;
};

}  // namespace mnemo::integration

#endif  // MNEMO_INTEGRATION_MYSQL || MNEMO_INTEGRATION_POSTGRES
