// --check-config on the database-server plugins (mysql, postgres): it
// connects and logs in as the daemon would but creates nothing; a wrong
// password or an unreachable server exits 1 (as the start would), a newer
// schema 78, each with the storage.options key at fault placed as load
// errors are (file:line:col).
// Real servers: a private MariaDB that checks passwords (the shared one runs
// without grant tables), the shared PostgreSQL with a role that must give
// one.
#include "shared_daemons.h"

#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)

#include <gmock/gmock.h>

#include <algorithm>

#ifdef MNEMO_INTEGRATION_MYSQL
#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#endif

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

constexpr int kConfigRefused = 78;
constexpr int kStoreUnreachable = 1;
constexpr const char* kChecker = "checker";
constexpr const char* kRightPassword = "right-pw";

#ifdef MNEMO_INTEGRATION_MYSQL
// The private MariaDB of these tests, started on first use.
std::unique_ptr<mysql_fixture::MariadbServer>& checked_mariadb() {
    static std::unique_ptr<mysql_fixture::MariadbServer> server;
    if (!server) {
        server = std::make_unique<mysql_fixture::MariadbServer>(mysql_fixture::MariadbServer::Logins::Checked);
        std::string error;
        if (!server->start(&error)) throw std::runtime_error("cannot start a MariaDB that checks logins: " + error);
    }
    return server;
}

void mysql_execute(const std::string& database, const std::string& sql) {
    auto conn = checked_mariadb()->connect(database);
    std::unique_ptr<sql::Statement>(conn->createStatement())->execute(sql);
}

std::string mysql_value(const std::string& database, const std::string& sql) {
    auto conn = checked_mariadb()->connect(database);
    std::unique_ptr<sql::ResultSet> rows(std::unique_ptr<sql::Statement>(conn->createStatement())->executeQuery(sql));
    return rows->next() ? std::string(rows->getString(1)) : std::string();
}
#endif

// A database of `backend`'s server on which kChecker may log in with
// kRightPassword and create the schema.
std::string database_for_checker(const std::string& backend) {
#ifdef MNEMO_INTEGRATION_MYSQL
    if (backend == "mysql") {
        std::string database = checked_mariadb()->create_database("check");
        mysql_execute("", std::string("CREATE USER IF NOT EXISTS '") + kChecker + "'@'localhost' IDENTIFIED BY '" +
                              kRightPassword + "'");
        mysql_execute("", "GRANT ALL PRIVILEGES ON `" + database + "`.* TO '" + kChecker + "'@'localhost'");
        return database;
    }
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    if (backend == "postgres") {
        auto& server = postgres_fixture::shared_server();
        server.add_password_user(kChecker, kRightPassword);
        std::string database = server.create_database("check");
        // PostgreSQL 15 lets only the owner create in public.
        std::string failed = server.execute("", "ALTER DATABASE " + database + " OWNER TO " + kChecker);
        if (!failed.empty()) throw std::runtime_error(failed);
        return database;
    }
#endif
    throw std::invalid_argument("no server for " + backend);
}

// Runs one statement in `database` as the server's administrator.
void execute_in(const std::string& backend, const std::string& database, const std::string& sql) {
#ifdef MNEMO_INTEGRATION_MYSQL
    if (backend == "mysql") return mysql_execute(database, sql);
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    std::string failed = postgres_fixture::shared_server().execute(database, sql);
    if (!failed.empty()) throw std::runtime_error(failed);
#endif
}

// The tables `database` holds.
int tables_in(const std::string& backend, const std::string& database) {
#ifdef MNEMO_INTEGRATION_MYSQL
    if (backend == "mysql")
        return std::stoi(
            mysql_value("", "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + database + "'"));
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    return std::stoi(postgres_fixture::shared_server().query_value(
        database, "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"));
#endif
    return -1;
}

// storage.options (one key a line, so each has a place of its own) that log
// in as kChecker with `password` on `database`.
std::string login_options(const std::string& backend, const std::string& database, const std::string& password) {
    std::string where;
#ifdef MNEMO_INTEGRATION_MYSQL
    if (backend == "mysql") where = "    socket: \"" + checked_mariadb()->socket() + "\"\n    database: " + database;
#endif
#ifdef MNEMO_INTEGRATION_POSTGRES
    if (backend == "postgres")
        where = "    host: \"" + postgres_fixture::shared_server().dir() + "\"\n    port: 5432\n    dbname: " +
                database;
#endif
    return where + "\n    user: " + kChecker + "\n    password: " + password + "\n    connect_timeout: 2s\n";
}

std::string server_config(const std::string& backend, const std::string& options) {
    return "server:\n  listen: [\"127.0.0.1:" + std::to_string(pick_free_port()) + "\"]\nstorage:\n  plugin: " +
           backend + "\n  plugin_dir: " + MNEMO_BUILD_PLUGIN_DIR + "\n  options:\n" + options;
}

// "mnemod.yaml:LINE:COL: storage.options.KEY: ", the place of KEY's value in config.
std::string placed_at(const std::string& config, const std::string& key) {
    const std::string written = "\n    " + key + ": ";
    const size_t at = config.find(written);
    if (at == std::string::npos) throw std::invalid_argument(key + " is not in the config");
    const auto line = std::count(config.begin(), config.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 2;
    return "mnemod.yaml:" + std::to_string(line) + ":" + std::to_string(written.size()) + ": storage.options." + key +
           ": ";
}

class CheckConfigOnServer : public ::testing::TestWithParam<std::string> {
protected:
    static void TearDownTestSuite() {
#ifdef MNEMO_INTEGRATION_MYSQL
        checked_mariadb().reset();
#endif
    }
    // The database's option key in this plugin's options.
    std::string database_key() const { return GetParam() == "mysql" ? "database" : "dbname"; }

    RunResult check(const std::string& config) {
        return run_mnemod({"--check-config", "--config", dir_.write("mnemod.yaml", config)});
    }

    TempDir dir_;
};

TEST_P(CheckConfigOnServer, RightLoginPassesAndLeavesAnEmptyDatabaseEmpty) {
    const std::string database = database_for_checker(GetParam());
    auto result = check(server_config(GetParam(), login_options(GetParam(), database, kRightPassword)));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("configuration is valid"));
    EXPECT_THAT(result.out, HasSubstr("no mnemod schema yet; mnemod creates it"));
    EXPECT_EQ(tables_in(GetParam(), database), 0);
}

TEST_P(CheckConfigOnServer, WrongPasswordIsPlacedAtThePasswordKey) {
    const std::string database = database_for_checker(GetParam());
    const std::string config = server_config(GetParam(), login_options(GetParam(), database, "wrong-pw"));
    auto result = check(config);
    EXPECT_EQ(result.exit_code, kStoreUnreachable) << result.out << result.err;
    EXPECT_THAT(result.err, HasSubstr(placed_at(config, "password")));
    EXPECT_THAT(result.err, HasSubstr(kChecker));  // the server's words name the user
    EXPECT_THAT(result.err, HasSubstr("check the"));  // and what to do
    EXPECT_EQ(tables_in(GetParam(), database), 0);
}

TEST_P(CheckConfigOnServer, UnreachableServerIsPlacedAtTheHostKey) {
    const std::string port = std::to_string(pick_free_port());  // nothing listens there
    const std::string config =
        server_config(GetParam(), "    host: 127.0.0.1\n    port: " + port + "\n    user: " + std::string(kChecker) +
                                      "\n    connect_timeout: 2s\n");
    auto result = check(config);
    EXPECT_EQ(result.exit_code, kStoreUnreachable) << result.out << result.err;
    EXPECT_THAT(result.err, HasSubstr(placed_at(config, "host")));
    EXPECT_THAT(result.err, HasSubstr(port));
    EXPECT_THAT(result.err, HasSubstr("running"));  // is the server running...
}

TEST_P(CheckConfigOnServer, NewerSchemaIsRefusedAtTheDatabaseKey) {
    const std::string database = database_for_checker(GetParam());
    execute_in(GetParam(), database, "CREATE TABLE schema_version (version INT NOT NULL)");
    execute_in(GetParam(), database, "INSERT INTO schema_version (version) VALUES (999)");
    // The administrator made the table; the checker reads it (on mysql it may already).
    if (GetParam() == "postgres")
        execute_in(GetParam(), database, std::string("GRANT SELECT ON schema_version TO ") + kChecker);
    const std::string config = server_config(GetParam(), login_options(GetParam(), database, kRightPassword));
    auto result = check(config);
    EXPECT_EQ(result.exit_code, kConfigRefused) << result.out << result.err;
    EXPECT_THAT(result.err, HasSubstr(placed_at(config, database_key())));
    EXPECT_THAT(result.err, HasSubstr("schema version 999"));
    EXPECT_THAT(result.err, HasSubstr("upgrade mnemod"));
}

INSTANTIATE_TEST_SUITE_P(Servers, CheckConfigOnServer, ::testing::ValuesIn(shared_backends()),
                         [](const auto& info) { return info.param; });

#ifdef MNEMO_INTEGRATION_POSTGRES
TEST(CheckConfigOnPostgres, ConninfoWithAWrongPasswordIsPlacedAtTheConninfoKey) {
    auto& server = postgres_fixture::shared_server();
    const std::string database = database_for_checker("postgres");
    const std::string config = server_config(
        "postgres", "    conninfo: \"host=" + server.dir() + " port=5432 dbname=" + database + " user=" + kChecker +
                        " password=wrong-pw\"\n");
    TempDir dir;
    auto result = run_mnemod({"--check-config", "--config", dir.write("mnemod.yaml", config)});
    EXPECT_EQ(result.exit_code, kStoreUnreachable) << result.out << result.err;
    EXPECT_THAT(result.err, HasSubstr(placed_at(config, "conninfo")));
    EXPECT_THAT(result.err, HasSubstr("28P01"));  // the server's SQLSTATE: invalid password
}

TEST(CheckConfigOnPostgres, AUserWhoMayNotCreateTheSchemaIsPlacedAtTheUserKey) {
    auto& server = postgres_fixture::shared_server();
    database_for_checker("postgres");  // the role
    const std::string database = server.create_database("check_foreign");  // owned by postgres
    const std::string config = server_config("postgres", login_options("postgres", database, kRightPassword));
    TempDir dir;
    auto result = run_mnemod({"--check-config", "--config", dir.write("mnemod.yaml", config)});
    EXPECT_EQ(result.exit_code, kConfigRefused) << result.out << result.err;
    EXPECT_THAT(result.err, HasSubstr(placed_at(config, "user")));
    EXPECT_THAT(result.err, HasSubstr("GRANT CREATE ON SCHEMA public TO checker"));
}
#endif

}  // namespace
}  // namespace mnemo::integration

#endif  // MNEMO_INTEGRATION_MYSQL || MNEMO_INTEGRATION_POSTGRES
