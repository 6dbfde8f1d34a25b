// Schema migrations at open: a fresh database gets every step in order, a
// second open applies nothing, an old database is upgraded keeping its rows,
// a newer one is refused, and every table is InnoDB in utf8mb4.
#include "migrations.h"
#include "core/plugin_host.h"
#include "mysql_backend.h"
#include "search_tokens.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace mnemo::mysql::test {
namespace {

// Every step's version, in order (the last one is kMigrations' last).
std::vector<std::string> every_version() {
    std::vector<std::string> versions;
    for (const Migration* step : kMigrations) versions.push_back(std::to_string(step->version));
    return versions;
}
const std::vector<std::string> kEveryVersion = every_version();

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
    void recreate_database() {
        auto conn = server().connect();
        std::unique_ptr<sql::Statement> statement(conn->createStatement());
        statement->execute("DROP DATABASE " + database_);
        statement->execute("CREATE DATABASE " + database_);
    }
    int open_rc(mnemo_error& err) {
        mnemo_backend* backend = nullptr;
        std::string options = server().plugin_options(database_);
        int rc = ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err);
        if (backend) ops().close(backend);
        return rc;
    }
};

TEST_F(SchemaTest, AFreshDatabaseGetsEveryStepInOrder) {
    {
        Backend backend(database_);
        ASSERT_TRUE(backend);
    }
    EXPECT_EQ(column("SELECT version FROM schema_version ORDER BY version"), kEveryVersion);
    for (std::string table : {"sessions", "events", "lanes", "state_scopes", "summaries", "track_events"}) {
        EXPECT_EQ(column("SELECT CONCAT(engine, ' ', table_collation) FROM information_schema.tables "
                         "WHERE table_schema = DATABASE() AND table_name = '" +
                         table + "'"),
                  std::vector<std::string>{"InnoDB utf8mb4_bin"})
            << table;
    }
}

TEST_F(SchemaTest, OpeningAgainAppliesNothing) {
    {
        Backend first(database_);
        ASSERT_TRUE(first);
        ASSERT_EQ(first.create("s1").rc, MNEMO_OK);
    }
    {
        Backend second(database_);
        ASSERT_TRUE(second);
        EXPECT_EQ(second.get("s1").rc, MNEMO_OK);
    }
    EXPECT_EQ(column("SELECT COUNT(*) FROM schema_version"),
              std::vector<std::string>{std::to_string(kMigrations.size())});
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
    EXPECT_EQ(column("SELECT version FROM schema_version ORDER BY version"), kEveryVersion);
    Answer old = backend.get("old", 2);
    ASSERT_EQ(old.rc, MNEMO_OK) << old.err.message;
    EXPECT_EQ(backend.write_lane("tg:1", "s2", 0).rc, MNEMO_OK) << "v2's lanes table exists";
}

// A crash between a step's DDL and its version row (MySQL commits each DDL
// statement on its own): the next open finishes the step by itself.
TEST_F(SchemaTest, EveryStepCutOffBeforeItsVersionRowFinishesAtTheNextOpen) {
    for (const Migration* cut : kMigrations) {
        SCOPED_TRACE("cut off after the DDL of v" + std::to_string(cut->version));
        recreate_database();
        run(kSchemaVersionTable);
        for (const Migration* step : kMigrations) {
            for (const char* statement : step->statements) run(statement);
            if (step == cut) break;
            run("INSERT INTO schema_version (version) VALUES (" + std::to_string(step->version) + ")");
        }
        Backend backend(database_);
        ASSERT_TRUE(backend);
        EXPECT_EQ(column("SELECT version FROM schema_version ORDER BY version"), kEveryVersion);
        ASSERT_EQ(backend.create("s1").rc, MNEMO_OK);
        ASSERT_EQ(backend.append("s1", "zebra", -1, 3).rc, MNEMO_OK);
        EXPECT_EQ(backend.search("zebra", 4).out.hits.size(), 1u);
    }
}

// v4: an app's session list has its own key in its order, replacing v1's.
TEST_F(SchemaTest, AVersionThreeDatabaseGetsTheAppListKeyInListOrder) {
    run(kSchemaVersionTable);
    for (const Migration* step : {&kSchemaV1, &kSchemaV2, &kSchemaV3})
        for (const char* statement : step->statements) run(statement);
    run("INSERT INTO schema_version (version) VALUES (1), (2), (3)");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(column("SELECT column_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND "
                     "table_name = 'sessions' AND index_name = 'sessions_app_user_updated' ORDER BY seq_in_index"),
              (std::vector<std::string>{"app", "updated_at", "user", "id"}));
    EXPECT_EQ(column("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND "
                     "table_name = 'sessions' AND index_name = 'sessions_app_updated'"),
              std::vector<std::string>{"0"});
}

TEST_F(SchemaTest, EventsCarryAFulltextIndexOnTheirSearchTokens) {
    {
        Backend backend(database_);
        ASSERT_TRUE(backend);
    }
    EXPECT_EQ(column("SELECT CONCAT(index_type, ' ', column_name) FROM information_schema.statistics "
                     "WHERE table_schema = DATABASE() AND table_name = 'events' AND index_name = 'events_search'"),
              std::vector<std::string>{"FULLTEXT search_tokens"});
    EXPECT_EQ(column("SELECT CONCAT(column_name, ' ', character_set_name, ' ', data_type) FROM "
                     "information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'events' AND "
                     "column_name LIKE 'search%' ORDER BY column_name"),
              (std::vector<std::string>{"search_text utf8mb4 mediumtext", "search_tokens ascii mediumtext"}));
}

TEST_F(SchemaTest, EventsFromBeforeSearchAreKeptAndLeftUnsearchable) {
    run(kSchemaVersionTable);
    for (const Migration* step : {&kSchemaV1, &kSchemaV2})
        for (const char* statement : step->statements) run(statement);
    run("INSERT INTO schema_version (version) VALUES (1), (2)");
    run("INSERT INTO sessions (app, user, id, title, metadata, created_at, updated_at, event_count, last_seq) "
        "VALUES ('shop', 'u1', 'old', '', '{}', 1, 1, 1, 1)");
    run("INSERT INTO events (sid, seq, id, author, role, content, timestamp_us) "
        "VALUES (LAST_INSERT_ID(), 1, 'e1', 'user', 'user', '\"zebra\"', 1)");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(column("SELECT COUNT(*) FROM events WHERE search_text IS NULL AND search_tokens IS NULL"),
              std::vector<std::string>{"1"});
    Answer found = backend.search("zebra", 2);
    ASSERT_EQ(found.rc, MNEMO_OK) << found.err.message;
    EXPECT_TRUE(found.out.hits.empty());
    ASSERT_EQ(backend.append("old", "zebra again", -1, 3).rc, MNEMO_OK);
    EXPECT_EQ(backend.search("zebra", 4).out.hit_seqs(), std::vector<int64_t>{2});
}

// The steps that move search and recall onto the host's terms: a database
// of the step before, its search_tokens holding folded words, is re-derived
// at open (events in more than one batch, sessions, memories): search and
// recall find the old rows by their stems, term counts are host terms, and
// the sessions' search_terms sum their visible events'.
TEST_F(SchemaTest, APreviousVersionDatabaseIsRederivedFromTheHostsTerms) {
    run(kSchemaVersionTable);
    for (const Migration* step : kMigrations) {
        if (step->version >= kEventTermsVersion) break;
        for (const char* statement : step->statements) run(statement);
        run("INSERT INTO schema_version (version) VALUES (" + std::to_string(step->version) + ")");
    }
    using search_tokens::token;
    const std::string old_tokens = token("she") + " " + token("runs") + " " + token("daily");
    const int64_t events = kRederiveBatch + 500;
    run("INSERT INTO sessions (sid, app, user, id, title, metadata, created_at, updated_at, event_count, last_seq) "
        "VALUES (1, 'shop', 'u1', 's1', '', '{}', 1, 1, " +
        std::to_string(events - 1) + ", " + std::to_string(events) + ")");
    run("INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text, search_tokens, "
        "deleted_at) WITH RECURSIVE d (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 49), "
        "n (i) AS (SELECT a.i * 50 + b.i + 1 FROM d a, d b) "
        "SELECT 1, i, CONCAT('e', i), 'user', 'user', '\"x\"', i, 'She runs daily', '" +
        old_tokens + "', IF(i = 2, 5, 0) FROM n WHERE i <= " + std::to_string(events));
    run("INSERT INTO memories (app, user, id, text, folded_text, word_count, metadata, created_at, updated_at, "
        "change_seq, search_tokens) VALUES ('shop', 'u1', 'm1', 'went running twice', 'went running twice', 3, "
        "'{}', 1, 1, 1, '" +
        token("went") + " " + token("running") + " " + token("twice") + "')");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(column("SELECT MAX(version) FROM schema_version"),
              std::vector<std::string>{std::to_string(kSchemaVersion)});
    EXPECT_EQ(column("SELECT COUNT(*) FROM events WHERE term_count = 3 AND search_tokens = '" + token("she") + " " +
                     token("run") + " " + token("daili") + "'"),
              std::vector<std::string>{std::to_string(events)});
    EXPECT_EQ(column("SELECT search_terms FROM sessions WHERE sid = 1"),
              std::vector<std::string>{std::to_string(3 * (events - 1))})
        << "the soft-deleted event is not counted";
    EXPECT_EQ(column("SELECT word_count FROM memories"), std::vector<std::string>{"3"});
    Answer found = backend.search("running", 2);
    ASSERT_EQ(found.rc, MNEMO_OK) << found.err.message;
    EXPECT_EQ(found.out.hit_seqs().size(), 50u) << "max_hits of the one session";
    Answer recalled = backend.recall("runs", 5);
    ASSERT_EQ(recalled.rc, MNEMO_OK) << recalled.err.message;
    EXPECT_EQ(recalled.out.hit_ids(), std::vector<std::string>{"m1"});
}

TEST_F(SchemaTest, ANewerSchemaIsRefusedNamingBothVersions) {
    {
        Backend backend(database_);
        ASSERT_TRUE(backend);
    }
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
    EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find("no_such_database"), std::string::npos) << err.message;
}

TEST(MysqlOptions, UnknownKeysAndWrongTypesAreRefusedByName) {
    struct Case {
        const char* json;
        const char* mentions;
    };
    for (const Case& c : {Case{R"({"hostname":"x"})", "hostname"}, Case{R"({"port":"3306"})", "port"},
                          Case{R"({"pool_size":0})", "pool_size"}, Case{R"({"tls":1})", "tls"},
                          Case{R"({"port":3306.5})", "'port' must be an integer"},
                          Case{R"({"host":{"a":1}})", "string"}, Case{R"([1])", "not a JSON object"}}) {
        mnemo_backend* backend = nullptr;
        mnemo_error err{};
        EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), c.json, &backend, &err), MNEMO_E_INVALID) << c.json;
        EXPECT_NE(std::string(err.message).find(c.mentions), std::string::npos) << c.json << ": " << err.message;
    }
}

TEST(MysqlOptions, AnUnreachableServerIsUnavailable) {
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    const char* options = R"({"socket":"/nonexistent/mysqld.sock","database":"x","connect_timeout_ms":500})";
    EXPECT_EQ(ops().open(&mnemo::core::plugin_host(), options, &backend, &err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find("/nonexistent/mysqld.sock"), std::string::npos) << err.message;
}

TEST(MysqlPlugin, DeclaresASharedPersistentSearchableBackend) {
    EXPECT_STREQ(plugin().name, "mysql");
    EXPECT_EQ(plugin().abi_version, static_cast<uint32_t>(MNEMO_PLUGIN_ABI_VERSION));
    EXPECT_EQ(plugin().capabilities,
              MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SHARED | MNEMO_CAP_SEARCH);
}

}  // namespace
}  // namespace mnemo::mysql::test
