#include "postgres_server.h"

#include <libpq-fe.h>

#include "child_process.h"

#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mnemo::postgres_fixture {
namespace {

using namespace std::chrono_literals;
using server_fixture::make_temp_dir;
using server_fixture::spawn;
using server_fixture::wait_success;

constexpr const char* kPort = "5432";  // the socket's name; nothing listens on TCP

// Durability is traded for speed (tests stop the server cleanly), buffers
// kept small for a 2-core CI box.
const std::vector<std::string> kServerTuning = {
    "-c", "fsync=off",          "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
    "-c", "shared_buffers=16MB", "-c", "max_connections=200",   "-c", "listen_addresses=",
};

// The newest installed server's bin folder (Debian: /usr/lib/postgresql/N/bin).
std::string server_bin() {
    std::string best;
    int best_version = -1;
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ignored)) {
        const std::string name = entry.path().filename().string();
        if (!std::filesystem::exists(entry.path() / "bin" / "postgres")) continue;
        const int version = std::atoi(name.c_str());
        if (version > best_version) best_version = version, best = (entry.path() / "bin").string();
    }
    if (best.empty()) throw std::runtime_error("no PostgreSQL server in /usr/lib/postgresql (tools/install-deps.sh --test)");
    return best;
}

// As root, commands run as the postgres user: the server refuses root.
std::vector<std::string> as_server_user(std::vector<std::string> argv) {
    if (geteuid() != 0) return argv;
    argv.insert(argv.begin(), {"runuser", "-u", "postgres", "--"});
    return argv;
}

std::string make_server_dir() {
    std::string dir = make_temp_dir("mnemo-postgres");
    if (geteuid() == 0) {
        const passwd* user = getpwnam("postgres");
        if (!user) throw std::runtime_error("running as root, but there is no postgres user to run the server as");
        if (chown(dir.c_str(), user->pw_uid, user->pw_gid) != 0)
            throw std::runtime_error("cannot hand " + dir + " to the postgres user");
    }
    return dir;
}

using Connection = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

std::string conninfo(const std::string& dir, const std::string& database) {
    return "host=" + dir + " port=" + kPort + " user=postgres dbname=" + (database.empty() ? "postgres" : database);
}

Connection connect_to(const std::string& dir, const std::string& database) {
    Connection conn(PQconnectdb(conninfo(dir, database).c_str()), &PQfinish);
    if (PQstatus(conn.get()) != CONNECTION_OK)
        throw std::runtime_error("cannot connect to the test postgres: " + std::string(PQerrorMessage(conn.get())));
    return conn;
}

Result run(PGconn* conn, const std::string& sql) {
    return Result(PQexec(conn, sql.c_str()), &PQclear);
}

bool ok(const Result& result) {
    const ExecStatusType status = PQresultStatus(result.get());
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

}  // namespace

PostgresServer::PostgresServer() : dir_(make_server_dir()), datadir_(dir_ + "/data") {}

PostgresServer::~PostgresServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

bool PostgresServer::initialize(std::string* error) {
    std::vector<std::string> argv = as_server_user({server_bin() + "/initdb", "-D", datadir_, "-U", "postgres", "-A",
                                                    "trust", "-E", "UTF8", "--no-locale", "--no-sync"});
    if (!wait_success(spawn(argv, dir_ + "/initdb.log"), 120s)) {
        *error = "initdb failed; its log:\n" + log();
        return false;
    }
    initialized_ = true;
    return true;
}

bool PostgresServer::start(std::string* error) {
    if (running()) return true;
    if (!initialized_ && !initialize(error)) return false;
    std::vector<std::string> argv = {server_bin() + "/postgres", "-D", datadir_, "-k", dir_, "-p", kPort};
    argv.insert(argv.end(), kServerTuning.begin(), kServerTuning.end());
    pid_ = spawn(as_server_user(argv), dir_ + "/postgres.log");
    return wait_ready(error);
}

bool PostgresServer::wait_ready(std::string* error) {
    auto deadline = std::chrono::steady_clock::now() + 60s;
    const std::string info = conninfo(dir_, "");
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            *error = "postgres exited during start-up; its log:\n" + log();
            return false;
        }
        if (PQping(info.c_str()) == PQPING_OK) return true;
        std::this_thread::sleep_for(50ms);
    }
    *error = "postgres did not accept connections within 60s; its log:\n" + log();
    stop();
    return false;
}

void PostgresServer::stop() {
    if (pid_ <= 0) return;
    // The postmaster's own pid (under runuser, pid_ is runuser's): SIGINT is
    // its fast shutdown, which rolls back open transactions and keeps every
    // committed one.
    std::ifstream pid_file(datadir_ + "/postmaster.pid");
    pid_t postmaster = 0;
    if (pid_file >> postmaster && postmaster > 0) kill(postmaster, SIGINT);
    kill(pid_, SIGINT);
    wait_success(pid_, 60s);  // kills and reaps it past the bound
    pid_ = -1;
}

std::string PostgresServer::execute(const std::string& database, const std::string& sql) const {
    Connection conn = connect_to(dir_, database);
    Result result = run(conn.get(), sql);
    return ok(result) ? "" : PQresultErrorMessage(result.get());
}

std::string PostgresServer::query_value(const std::string& database, const std::string& sql) const {
    Connection conn = connect_to(dir_, database);
    Result result = run(conn.get(), sql);
    if (!ok(result) || PQntuples(result.get()) == 0) return "";
    return PQgetvalue(result.get(), 0, 0);
}

std::string PostgresServer::create_database(const std::string& prefix) {
    std::string name = prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(++databases_);
    std::string failed = execute("", "CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
    if (!failed.empty()) throw std::runtime_error("CREATE DATABASE " + name + ": " + failed);
    return name;
}

void PostgresServer::drop_database(const std::string& name) {
    execute("", "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
}

void PostgresServer::clear_database(const std::string& name) {
    Connection conn = connect_to(dir_, name);
    // DELETE, not TRUNCATE: on tables this small it is several times faster
    // (TRUNCATE makes new files for every table and index).
    Result tables = run(conn.get(),
                        "SELECT string_agg('DELETE FROM ' || quote_ident(tablename), '; ') FROM pg_tables WHERE "
                        "schemaname = current_schema() AND tablename NOT IN ('schema_version', 'memory_feed')");
    if (ok(tables) && PQntuples(tables.get()) == 1 && !PQgetisnull(tables.get(), 0, 0))
        run(conn.get(), PQgetvalue(tables.get(), 0, 0));
    // The memory feed's counter row belongs to the schema, like the version rows: empty, it counts from 0.
    run(conn.get(), "UPDATE memory_feed SET last_seq = 0, horizon = 0");
}

void PostgresServer::add_password_user(const std::string& user, const std::string& password) {
    if (!query_value("", "SELECT 1 FROM pg_roles WHERE rolname = '" + user + "'").empty()) return;
    std::string failed = execute("", "CREATE ROLE " + user + " LOGIN PASSWORD '" + password + "'");
    if (!failed.empty()) throw std::runtime_error("CREATE ROLE " + user + ": " + failed);
    // pg_hba.conf takes the first line that matches: this role's goes first.
    const std::string hba = datadir_ + "/pg_hba.conf";
    std::stringstream rest;
    rest << std::ifstream(hba).rdbuf();
    std::ofstream(hba, std::ios::trunc) << "local all " << user << " scram-sha-256\n" << rest.str();
    execute("", "SELECT pg_reload_conf()");
    // The reload is asynchronous: done once the server asks the role for a password.
    const std::string info = "host=" + dir_ + " port=" + kPort + " dbname=postgres user=" + user;
    for (auto deadline = std::chrono::steady_clock::now() + 10s; std::chrono::steady_clock::now() < deadline;) {
        Connection conn(PQconnectdb(info.c_str()), &PQfinish);
        if (PQconnectionNeedsPassword(conn.get())) return;
        std::this_thread::sleep_for(50ms);
    }
    throw std::runtime_error("postgres did not start asking " + user + " for a password after pg_reload_conf()");
}

std::string PostgresServer::plugin_options(const std::string& database, int pool_size) const {
    return R"({"host":")" + dir_ + R"(","port":)" + kPort + R"(,"user":"postgres","dbname":")" + database +
           R"(","pool_size":)" + std::to_string(pool_size) + R"(,"connect_timeout_ms":2000})";
}

std::string PostgresServer::yaml_options(const std::string& database, int pool_size) const {
    return "{host: \"" + dir_ + "\", port: " + kPort + ", user: postgres, dbname: " + database +
           ", pool_size: " + std::to_string(pool_size) + ", connect_timeout: 2s}";
}

std::string PostgresServer::log() const {
    return server_fixture::tail_of_logs(dir_, {"/initdb.log", "/postgres.log"});
}

namespace {
std::unique_ptr<PostgresServer>& shared_slot() {
    static std::unique_ptr<PostgresServer> server;
    return server;
}
}  // namespace

PostgresServer& shared_server() {
    return server_fixture::started_once(shared_slot(), "PostgreSQL");
}

void stop_shared_server() {
    shared_slot().reset();
}

}  // namespace mnemo::postgres_fixture
