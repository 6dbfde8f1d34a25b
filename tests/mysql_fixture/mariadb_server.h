// mariadb_server.h -- a private MariaDB server for the tests: installs a
// fresh data directory in a temporary folder (mariadb-install-db), runs
// mariadbd on a unix socket only (no TCP, no grant tables, small buffers),
// creates databases for the tests, and stops the server (and removes the
// folder) at the end. The same data directory survives stop()/start(), so
// outage tests can take the database away and bring it back. No mock: the
// plugin talks to a real server. Used by unit_mysql, conformance_tests and
// integration_tests.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

namespace sql {
class Connection;
}

namespace mnemo::mysql_fixture {

class MariadbServer {
public:
    // Trusted: no grant tables, any login is let in (fast, the tests' usual
    // server). Checked: accounts and passwords are checked; root logs in
    // with an empty password.
    enum class Logins { Trusted, Checked };

    // Creates the folder and installs the data directory; start() runs it.
    explicit MariadbServer(Logins logins = Logins::Trusted);
    ~MariadbServer();  // stops the server, removes the folder
    MariadbServer(const MariadbServer&) = delete;
    MariadbServer& operator=(const MariadbServer&) = delete;

    // Starts mariadbd and waits (bounded) until it accepts connections;
    // false with *error (and the server's log) otherwise.
    bool start(std::string* error);
    // SIGTERM (a clean shutdown that keeps every committed row), waits for
    // the process; SIGKILL after a bound. Idempotent.
    void stop();
    bool running() const { return pid_ > 0; }

    const std::string& socket() const { return socket_; }
    const std::string& dir() const { return dir_; }
    // A new empty database with a unique name starting with `prefix`.
    std::string create_database(const std::string& prefix);
    void drop_database(const std::string& name);
    // Deletes every row of every table but schema_version and the memory
    // feed's counter, which it sets back to 0 (fast between tests).
    void clear_database(const std::string& name);
    // storage.options for the mysql plugin (plugin JSON: connect_timeout_ms).
    std::string plugin_options(const std::string& database, int pool_size = 4) const;
    // The same as YAML for a mnemod config (`options: {...}`).
    std::string yaml_options(const std::string& database, int pool_size = 4) const;
    // A direct connection for checks the ABI cannot make (EXPLAIN, counts).
    std::unique_ptr<sql::Connection> connect(const std::string& database = "") const;
    std::string log() const;

private:
    bool install(std::string* error);
    bool wait_ready(std::string* error);

    Logins logins_;
    std::string dir_, datadir_, socket_;
    pid_t pid_ = -1;
    bool installed_ = false;
    int databases_ = 0;
};

// One server per test process, started on first use; stop_shared_server()
// (from a gtest Environment's TearDown) ends it. Fails the calling test
// when the server cannot start.
MariadbServer& shared_server();
void stop_shared_server();

}  // namespace mnemo::mysql_fixture
