// Schema and options at open: a fresh database gets every step, a second
// open applies nothing, a newer database and one that is not UTF8 are
// refused by name, and bad options are refused with the key.
#include "migrations.h"
#include "postgres_backend.h"

namespace mnemo::postgres::test {
namespace {

using SchemaTest = PostgresTest;

TEST_F(SchemaTest, AFreshDatabaseGetsEveryStepAndASecondOpenNone) {
    {
        Backend first(database_);
        ASSERT_TRUE(first);
        ASSERT_EQ(first.create("s1").rc, MNEMO_OK);
    }
    Backend second(database_);
    ASSERT_TRUE(second);
    EXPECT_EQ(second.get("s1").rc, MNEMO_OK);
    EXPECT_EQ(server().query_value(database_, "SELECT string_agg(version::text, ',' ORDER BY version) "
                                              "FROM schema_version"),
              std::to_string(kSchemaVersion));
}

TEST_F(SchemaTest, ANewerDatabaseIsRefusedByName) {
    { ASSERT_TRUE(Backend(database_)); }
    ASSERT_EQ(server().execute(database_, "INSERT INTO schema_version (version) VALUES (" +
                                              std::to_string(kSchemaVersion + 1) + ")"),
              "");
    mnemo_error err{};
    EXPECT_EQ(open_status(server().plugin_options(database_), err), MNEMO_E_INVALID);
    const std::string message = err.message;
    EXPECT_NE(message.find(database_), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(kSchemaVersion + 1)), std::string::npos) << message;
}

TEST_F(SchemaTest, ADatabaseThatIsNotUtf8IsRefused) {
    const std::string ascii = database_ + "_ascii";
    ASSERT_EQ(server().execute("", "CREATE DATABASE " + ascii + " ENCODING 'SQL_ASCII' TEMPLATE template0"), "");
    mnemo_error err{};
    EXPECT_EQ(open_status(server().plugin_options(ascii), err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("UTF8"), std::string::npos) << err.message;
    server().drop_database(ascii);
}

TEST_F(SchemaTest, OptionsAreRefusedWithTheKey) {
    mnemo_error err{};
    EXPECT_EQ(open_status(R"({"conninfo":"host=/tmp port"})", err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("'conninfo'"), std::string::npos) << err.message;
    EXPECT_EQ(open_status(R"({"sslmode":"sometimes"})", err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("'sslmode'"), std::string::npos) << err.message;
    EXPECT_EQ(open_status(R"({"database":"mnemo"})", err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("'database'"), std::string::npos) << err.message;
}

TEST_F(SchemaTest, AConninfoStringConnectsAndAKeywordBesideItWins) {
    const std::string conninfo = "host=" + server().dir() + " port=5432 user=postgres dbname=" + database_;
    mnemo_error err{};
    EXPECT_EQ(open_status(R"({"conninfo":")" + conninfo + R"("})", err), MNEMO_OK) << err.message;
    EXPECT_EQ(open_status(R"({"conninfo":")" + conninfo + R"(","dbname":"no_such_db"})", err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find("no_such_db"), std::string::npos) << err.message;
}

}  // namespace
}  // namespace mnemo::postgres::test
