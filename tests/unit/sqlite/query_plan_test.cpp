// The statements whose cost would grow with the data are index range scans:
// EXPLAIN QUERY PLAN of the exact texts the plugin runs shows no full SCAN of
// the sessions or events tables.
#include "backend_fixture.h"
#include "hot_queries.h"

#include <sqlite3.h>

#include <regex>

namespace mnemo::sqlite::test {
namespace {

class QueryPlanTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_EQ(sqlite3_open_v2(db_path().c_str(), &raw_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    }
    void TearDown() override {
        sqlite3_close(raw_);
        SqliteBackend::TearDown();
    }
    std::vector<std::string> plan(const std::string& sql) {
        sqlite3_stmt* stmt = nullptr;
        std::string explain = "EXPLAIN QUERY PLAN " + sql;
        EXPECT_EQ(sqlite3_prepare_v2(raw_, explain.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(raw_);
        std::vector<std::string> details;
        while (sqlite3_step(stmt) == SQLITE_ROW)
            details.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3)));
        sqlite3_finalize(stmt);
        return details;
    }
    // Every step touching `table` is a SEARCH through an index.
    void expect_indexed(const std::string& sql, const std::string& table) {
        std::vector<std::string> details = plan(sql);
        std::string all;
        for (const std::string& d : details) all += d + "\n";
        bool searched = false;
        for (const std::string& d : details) {
            EXPECT_FALSE(std::regex_search(d, std::regex("^SCAN " + table + "\\b"))) << sql << "\n" << all;
            searched = searched || std::regex_search(d, std::regex("^SEARCH " + table + " USING"));
        }
        EXPECT_TRUE(searched) << sql << "\n" << all;
    }
    sqlite3* raw_ = nullptr;
};

TEST_F(QueryPlanTest, ReadingTheNewestEventsIsARangeScan) {
    EventQueryShape recent;
    recent.num_recent = true;
    expect_indexed(event_select_sql(recent), "events");
    expect_indexed(event_select_sql({}), "events");
    EventQueryShape filtered{
        .include_deleted = true, .after_ts = true, .roles = true, .filter_key = true, .num_recent = true};
    expect_indexed(event_select_sql(filtered), "events");
}

TEST_F(QueryPlanTest, EvictionFindsAndRemovesTheOldestThroughTheIndex) {
    expect_indexed(kEvictCutoffSql, "events");
    expect_indexed(kEvictSql, "events");
}

TEST_F(QueryPlanTest, ListingSessionsByUpdatedAtUsesTheListIndexes) {
    expect_indexed(kListUserSessionsSql, "sessions");
    expect_indexed(kListAppSessionsSql, "sessions");
    for (const std::string& d : plan(kListUserSessionsSql))
        EXPECT_EQ(d.find("TEMP B-TREE"), std::string::npos) << "the index order serves ORDER BY: " << d;
}

TEST_F(QueryPlanTest, FindingExpiredSessionsUsesThePartialExpiryIndex) {
    expect_indexed(kExpiredSessionsSql, "sessions");
    expect_indexed(kFindSessionSql, "sessions");
}

}  // namespace
}  // namespace mnemo::sqlite::test
