// postgres_server.h -- a private PostgreSQL server for the tests: a fresh
// cluster in a temporary folder (initdb), run on a Unix socket in that folder
// only (listen_addresses ''), databases for the tests, and the server stopped
// (and the folder removed) at the end. initdb and postgres refuse to run as
// root, which CI is: then both run as Debian's `postgres` user (runuser),
// the folder owned by it. The data directory survives stop()/start(), so
// outage tests can take the database away and bring it back. No mock: the
// plugin talks to a real server.
#pragma once

#include <sys/types.h>

#include <string>

namespace mnemo::postgres_fixture {

class PostgresServer {
public:
    // Creates the folder; start() initializes the cluster the first time.
    PostgresServer();
    ~PostgresServer();  // stops the server, removes the folder
    PostgresServer(const PostgresServer&) = delete;
    PostgresServer& operator=(const PostgresServer&) = delete;

    // Starts postgres and waits (bounded) until it accepts connections;
    // false with *error (and the server's log) otherwise.
    bool start(std::string* error);
    // A fast shutdown (SIGINT: every committed row kept), waits for the
    // process; SIGKILL after a bound. Idempotent.
    void stop();
    bool running() const { return pid_ > 0; }

    // The socket directory (libpq's host).
    const std::string& dir() const { return dir_; }
    // A new empty database with a unique name starting with `prefix`.
    std::string create_database(const std::string& prefix);
    void drop_database(const std::string& name);
    // Deletes every row of every table but schema_version and the memory
    // feed's counter, which it sets back to 0 (fast between tests).
    void clear_database(const std::string& name);
    // Runs one statement in a database; "" when it succeeded, else the error.
    std::string execute(const std::string& database, const std::string& sql) const;
    // The first column of the first row of a query ("" without one).
    std::string query_value(const std::string& database, const std::string& sql) const;
    // A role `user` that logs in with `password` (scram-sha-256 on the
    // socket; every other role stays trusted), made once, then kept.
    void add_password_user(const std::string& user, const std::string& password);
    // storage.options for the postgres plugin (plugin JSON: connect_timeout_ms).
    std::string plugin_options(const std::string& database, int pool_size = 4) const;
    // The same as YAML for a mnemod config (`options: {...}`).
    std::string yaml_options(const std::string& database, int pool_size = 4) const;
    std::string log() const;

private:
    bool initialize(std::string* error);
    bool wait_ready(std::string* error);

    std::string dir_, datadir_;
    pid_t pid_ = -1;
    bool initialized_ = false;
    int databases_ = 0;
};

// One server per test process, started on first use; stop_shared_server()
// (from a gtest Environment's TearDown) ends it. Throws when the server
// cannot start.
PostgresServer& shared_server();
void stop_shared_server();

}  // namespace mnemo::postgres_fixture
