// Schema migrations at open: a fresh database gets every step in order, a
// second open applies nothing, an old database is upgraded keeping its rows,
// a newer one is refused, and every table is InnoDB in utf8mb4.
#include "migrations.h"
#include "mysql_backend.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace mnemo::mysql::test {
namespace {

class SchemaTest : public MysqlTest {
protected:
    std::vector<std::string> column(const std::string& sql) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement> statement(conn->createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(sql));
        std::vector<std::string> values;
        while (rows->next()) values.push_back(rows->getString(1));
        return values;
    }
    void run(const std::string& sql) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement>(conn->createStatement())->execute(sql);
    }
    int open_rc(mnemo_error& err) {
        mnemo_backend* backend = nullptr;
        std::string options = server().plugin_options(database_);
        int rc = ops().open(options.c_str(), &backend, &err);
        if (backend) ops().close(backend);
        return rc;
    }
};

TEST_F(SchemaTest, AFreshDatabaseGetsEveryStepInOrder) {
    { Backend backend(database_); ASSERT_TRUE(backend); }
    EXPECT_EQ(column("SELECT version FROM schema_version ORDER BY version"), (std::vector<std::string>{"1", "2"}));
    for (std::string table : {"sessions", "events", "lanes", "state_scopes", "summaries", "track_events"}) {
        EXPECT_EQ(column("SELECT CONCAT(engine, ' ', table_collation) FROM information_schema.tables "
                         "WHERE table_schema = DATABASE() AND table_name = '" + table + "'"),
                  std::vector<std::string>{"InnoDB utf8mb4_bin"})
            << table;
    }
}

TEST_F(SchemaTest, OpeningAgainAppliesNothing) {
    { Backend first(database_); ASSERT_TRUE(first); ASSERT_EQ(first.create("s1").rc, MNEMO_OK); }
    { Backend second(database_); ASSERT_TRUE(second); EXPECT_EQ(second.get("s1").rc, MNEMO_OK); }
    EXPECT_EQ(column("SELECT COUNT(*) FROM schema_version"), std::vector<std::string>{"2"});
}

TEST_F(SchemaTest, AnOldDatabaseIsUpgradedKeepingItsRows) {
    run(kSchemaVersionTable);
    for (const char* statement : kSchemaV1.statements) run(statement);
    run("INSERT INTO schema_version (version) VALUES (1)");
    run("INSERT INTO sessions (app, user, id, title, metadata, created_at, updated_at) "
        "VALUES ('shop', 'u1', 'old', '', '{}', 1, 1)");
    EXPECT_EQ(column("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND "
                     "table_name = 'lanes'"),
              std::vector<std::string>{"0"});
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(column("SELECT version FROM schema_version ORDER BY version"), (std::vector<std::string>{"1", "2"}));
    Answer old = backend.get("old", 2);
    ASSERT_EQ(old.rc, MNEMO_OK) << old.err.message;
    EXPECT_EQ(backend.write_lane("tg:1", "s2", 0).rc, MNEMO_OK) << "v2's lanes table exists";
}

TEST_F(SchemaTest, ANewerSchemaIsRefusedNamingBothVersions) {
    { Backend backend(database_); ASSERT_TRUE(backend); }
    run("INSERT INTO schema_version (version) VALUES (99)");
    mnemo_error err{};
    EXPECT_EQ(open_rc(err), MNEMO_E_INVALID);
    std::string message = err.message;
    EXPECT_NE(message.find("schema version 99"), std::string::npos) << message;
    EXPECT_NE(message.find("up to " + std::to_string(kSchemaVersion)), std::string::npos) << message;
    EXPECT_NE(message.find(database_), std::string::npos) << message;
}

TEST_F(SchemaTest, AMissingDatabaseIsUnavailableWithAHint) {
    mnemo_error err{};
    mnemo_backend* backend = nullptr;
    std::string options = server().plugin_options("no_such_database");
    EXPECT_EQ(ops().open(options.c_str(), &backend, &err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find("no_such_database"), std::string::npos) << err.message;
}

TEST(MysqlOptions, UnknownKeysAndWrongTypesAreRefusedByName) {
    struct Case {
        const char* json;
        const char* mentions;
    };
    for (const Case& c : {Case{R"({"hostname":"x"})", "hostname"}, Case{R"({"port":"3306"})", "port"},
                          Case{R"({"pool_size":0})", "pool_size"}, Case{R"({"tls":1})", "tls"},
                          Case{R"({"port":3306.5})", "fraction"}, Case{R"({"host":{"a":1}})", "string"},
                          Case{R"([1])", "'{'"}}) {
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(c.json, &backend, &err), MNEMO_E_INVALID) << c.json;
        EXPECT_NE(std::string(err.message).find(c.mentions), std::string::npos) << c.json << ": " << err.message;
    }
}

TEST(MysqlOptions, AnUnreachableServerIsUnavailable) {
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    const char* options = R"({"socket":"/nonexistent/mysqld.sock","database":"x","connect_timeout_ms":500})";
    EXPECT_EQ(ops().open(options, &backend, &err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find("/nonexistent/mysqld.sock"), std::string::npos) << err.message;
}

TEST(MysqlPlugin, DeclaresASharedPersistentBlockingBackend) {
    EXPECT_STREQ(plugin().name, "mysql");
    EXPECT_EQ(plugin().abi_version, static_cast<uint32_t>(MNEMO_PLUGIN_ABI_VERSION));
    EXPECT_EQ(plugin().capabilities, MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SHARED);
}

}  // namespace
}  // namespace mnemo::mysql::test
