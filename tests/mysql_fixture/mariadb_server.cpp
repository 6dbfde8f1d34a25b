#include "mariadb_server.h"

#include <cppconn/connection.h>
#include <cppconn/driver.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

#include "child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mnemo::mysql_fixture {
namespace {

using namespace std::chrono_literals;
using server_fixture::make_temp_dir;
using server_fixture::spawn;
using server_fixture::wait_success;

// Small buffers keep the server light on a 2-core CI box; the flush setting
// trades crash durability (tests stop the server cleanly) for speed.
const std::vector<std::string> kServerTuning = {
    "--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M", "--innodb-flush-log-at-trx-commit=2",
    "--innodb-doublewrite=0",        "--max-connections=500",     "--skip-name-resolve",
};


std::unique_ptr<sql::Statement> statement(sql::Connection& conn) {
    return std::unique_ptr<sql::Statement>(conn.createStatement());
}

}  // namespace

MariadbServer::MariadbServer(Logins logins)
    : logins_(logins),
      dir_(make_temp_dir("mnemo-mariadb")),
      datadir_(dir_ + "/data"),
      socket_(dir_ + "/mysqld.sock") {}

MariadbServer::~MariadbServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

bool MariadbServer::install(std::string* error) {
    std::vector<std::string> argv = {"mariadb-install-db",    "--no-defaults",
                                     "--datadir=" + datadir_, "--auth-root-authentication-method=normal",
                                     "--skip-test-db",        "--user=" + std::string(geteuid() == 0 ? "root" : "")};
    if (geteuid() != 0) argv.pop_back();
    argv.insert(argv.end(), kServerTuning.begin(), kServerTuning.end());
    if (!wait_success(spawn(argv, dir_ + "/install.log"), 120s)) {
        *error = "mariadb-install-db failed; its log:\n" + log();
        return false;
    }
    installed_ = true;
    return true;
}

bool MariadbServer::start(std::string* error) {
    if (running()) return true;
    if (!installed_ && !install(error)) return false;
    std::vector<std::string> argv = {"mariadbd",
                                     "--no-defaults",
                                     "--datadir=" + datadir_,
                                     "--socket=" + socket_,
                                     "--skip-networking",
                                     "--pid-file=" + dir_ + "/mysqld.pid",
                                     "--log-error=" + dir_ + "/mysqld.err"};
    if (logins_ == Logins::Trusted) argv.push_back("--skip-grant-tables");
    if (geteuid() == 0) argv.push_back("--user=root");
    argv.insert(argv.end(), kServerTuning.begin(), kServerTuning.end());
    pid_ = spawn(argv, dir_ + "/mysqld.out");
    return wait_ready(error);
}

bool MariadbServer::wait_ready(std::string* error) {
    auto deadline = std::chrono::steady_clock::now() + 60s;
    std::string last;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            *error = "mariadbd exited during start-up; its log:\n" + log();
            return false;
        }
        try {
            connect();
            return true;
        } catch (const sql::SQLException& e) {
            last = e.what();
        }
        std::this_thread::sleep_for(50ms);
    }
    *error = "mariadbd did not accept connections within 60s (" + last + "); its log:\n" + log();
    stop();
    return false;
}

void MariadbServer::stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    if (!wait_success(pid_, 60s)) {
        // wait_success already killed and reaped it.
    }
    pid_ = -1;
}

std::unique_ptr<sql::Connection> MariadbServer::connect(const std::string& database) const {
    sql::ConnectOptionsMap options;
    options["hostName"] = sql::SQLString("unix://" + socket_);
    options["socket"] = sql::SQLString(socket_);
    options["userName"] = sql::SQLString("root");
    options["password"] = sql::SQLString("");
    options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
    if (!database.empty()) options["schema"] = sql::SQLString(database);
    return std::unique_ptr<sql::Connection>(sql::mysql::get_mysql_driver_instance()->connect(options));
}

std::string MariadbServer::create_database(const std::string& prefix) {
    std::string name = prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(++databases_);
    statement(*connect())->execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    return name;
}

void MariadbServer::drop_database(const std::string& name) {
    statement(*connect())->execute("DROP DATABASE IF EXISTS `" + name + "`");
}

void MariadbServer::clear_database(const std::string& name) {
    auto conn = connect(name);
    std::vector<std::string> tables;
    {
        std::unique_ptr<sql::ResultSet> rows(statement(*conn)->executeQuery(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND "
            "table_name <> 'schema_version'"));
        while (rows->next()) tables.push_back(rows->getString(1));
    }
    for (const std::string& table : tables) {
        // The memory feed's counter row belongs to the schema, like the version rows: empty, it counts from 0.
        const bool counter = table == "memory_feed";
        statement(*conn)->execute(counter ? "UPDATE memory_feed SET last_seq = 0, horizon = 0"
                                          : "DELETE FROM `" + table + "`");
    }
}

std::string MariadbServer::plugin_options(const std::string& database, int pool_size) const {
    return R"({"socket":")" + socket_ + R"(","user":"root","password":"","database":")" + database +
           R"(","pool_size":)" + std::to_string(pool_size) + R"(,"connect_timeout_ms":2000})";
}

std::string MariadbServer::yaml_options(const std::string& database, int pool_size) const {
    return "{socket: \"" + socket_ + "\", user: root, password: \"\", database: " + database +
           ", pool_size: " + std::to_string(pool_size) + ", connect_timeout: 2s}";
}

std::string MariadbServer::log() const {
    return server_fixture::tail_of_logs(dir_, {"/install.log", "/mysqld.out", "/mysqld.err"});
}

namespace {
std::unique_ptr<MariadbServer>& shared_slot() {
    static std::unique_ptr<MariadbServer> server;
    return server;
}
}  // namespace

MariadbServer& shared_server() {
    return server_fixture::started_once(shared_slot(), "MariaDB");
}

void stop_shared_server() {
    shared_slot().reset();
}

}  // namespace mnemo::mysql_fixture
