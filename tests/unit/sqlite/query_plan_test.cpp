// The statements whose cost would grow with the data are index range scans:
// EXPLAIN QUERY PLAN of the exact texts the plugin runs shows no full SCAN of
// the sessions, events, state_scopes or lanes tables.
#include "connection.h"
#include "sqlite_fixture.h"
#include "event_rows.h"
#include "hot_queries.h"
#include "memory_sql.h"
#include "search_hits.h"
#include "term_tokenizer.h"

#include "core/plugin_host.h"
#include "host_services.h"

#include <sqlite3.h>

#include <regex>
#include <string>
#include <vector>

namespace mnemo::sqlite::test {
namespace {

class QueryPlanTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_EQ(sqlite3_open_v2(db_path().c_str(), &raw_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        host::install(&core::plugin_host());
        ASSERT_TRUE(register_term_tokenizer(raw_));  // memories_words and events_words need it
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
    // The plan names `index`: the partial index meant for the statement applies.
    void expect_uses_index(const std::string& sql, const std::string& index) {
        std::string all;
        for (const std::string& d : plan(sql)) all += d + "\n";
        EXPECT_NE(all.find("INDEX " + index + " "), std::string::npos) << sql << "\n" << all;
    }
    sqlite3* raw_ = nullptr;
};

TEST_F(QueryPlanTest, ReadingTheNewestEventsIsARangeScan) {
    EventQueryShape recent;
    recent.num_recent = true;
    expect_indexed(event_select_sql(kDialect, recent), "events");
    expect_indexed(event_select_sql(kDialect, EventQueryShape{}), "events");
    EventQueryShape filtered{
        .include_deleted = true, .after_ts = true, .roles = true, .filter_key = true, .num_recent = true};
    expect_indexed(event_select_sql(kDialect, filtered), "events");
}

TEST_F(QueryPlanTest, AnIdIsFoundThroughTheVisibleIdIndex) {
    expect_indexed(kFindVisibleIdSql, "events");
    expect_uses_index(kFindVisibleIdSql, "events_visible_id");
}

TEST_F(QueryPlanTest, EvictionFindsAndRemovesTheOldestThroughTheIndex) {
    expect_indexed(kEvictCutoffSql, "events");
    expect_indexed(kEvictSql, "events");
}

TEST_F(QueryPlanTest, ListingSessionsByUpdatedAtUsesTheListIndexes) {
    expect_indexed(kListUserSessionsSql, "sessions");
    expect_uses_index(kListUserSessionsSql, "sessions_user_updated");
    expect_indexed(kListAppSessionsSql, "sessions");
    expect_uses_index(kListAppSessionsSql, "sessions_app_user_updated");
    for (const std::string& sql : {kListUserSessionsSql, kListAppSessionsSql, kSearchRecentSql}) {
        for (const std::string& d : plan(sql))
            EXPECT_EQ(d.find("TEMP B-TREE"), std::string::npos) << "the index order serves ORDER BY: " << d;
    }
    expect_uses_index(kSearchRecentSql, "sessions_app_user_updated");
}

TEST_F(QueryPlanTest, FindingExpiredSessionsUsesThePartialExpiryIndex) {
    expect_indexed(kExpiredSessionsSql, "sessions");
    expect_uses_index(kExpiredSessionsSql, "sessions_live_expiry");
    expect_indexed(kFindSessionSql, "sessions");
}

TEST_F(QueryPlanTest, ExpiringSessionsUpdatesOnlyTheRowsTheLiveExpiryIndexFinds) {
    expect_indexed(kExpireSessionsSql, "sessions");
    expect_uses_index(kExpireSessionsSql, "sessions_live_expiry");
}

TEST_F(QueryPlanTest, ExpiredStateScopesComeFromTheScopeExpiryIndex) {
    expect_indexed(kExpiredScopesSql, "state_scopes");
    expect_uses_index(kExpiredScopesSql, "state_scopes_expiry");
}

TEST_F(QueryPlanTest, PurgingSoftDeletedRowsUsesTheirPartialIndexes) {
    expect_indexed(kPurgeableSessionsSql, "sessions");
    expect_uses_index(kPurgeableSessionsSql, "sessions_purgeable");
    expect_indexed(kPurgeDeletedEventsSql, "events");
    expect_uses_index(kPurgeDeletedEventsSql, "events_deleted");
    expect_indexed(kDeletedEventsDueSql, "events");
}

// The tail is a rowid range from the mark, whatever the app's size: events
// first, each one's session by its key.
TEST_F(QueryPlanTest, SearchReadsTheUnindexedTailAsARowidRangeFromTheMark) {
    for (bool user : {false, true}) {
        std::string sql = search_tail_sql(user);
        expect_indexed(sql, "e");
        expect_indexed(sql, "s");
        std::string all;
        for (const std::string& d : plan(sql)) all += d + "\n";
        EXPECT_NE(all.find("SEARCH e USING INTEGER PRIMARY KEY (rowid>?)"), std::string::npos) << all;
    }
}

TEST_F(QueryPlanTest, PruningLanesIsARangeScanByUpdatedAt) {
    expect_indexed(kPruneLanesSql, "lanes");
    expect_uses_index(kPruneLanesSql, "lanes_updated");
    expect_indexed(kLanesDueSql, "lanes");
}

// The statement has no range to search: it walks the partial index, which
// holds only pending marks, from its start and stops at the limit. That is
// the one accepted SCAN: of that index, never of the table.
TEST_F(QueryPlanTest, TheFinalizeListWalksOnlyThePendingIndexInMarkOrder) {
    const std::vector<std::string> details = plan(kFinalizePendingSql);
    ASSERT_EQ(details.size(), 1u);
    EXPECT_EQ(details[0], "SCAN sessions USING INDEX sessions_finalize_pending");
}

TEST_F(QueryPlanTest, ListingLanesUsesTheAppListIndexInOrder) {
    expect_indexed(kListLanesSql, "lanes");
    for (const std::string& d : plan(kListLanesSql))
        EXPECT_EQ(d.find("TEMP B-TREE"), std::string::npos) << "the index order serves ORDER BY: " << d;
}

TEST_F(QueryPlanTest, MemoryLookUpsByIdTextAndKeyUseTheirIndexes) {
    expect_uses_index(sqlcore::kMemoryByIdSql, "memories_id");
    expect_uses_index(sqlcore::kMemoryByTextSql, "memories_folded");
    expect_indexed(sqlcore::kMemoryByKeySql, "memories");
    expect_indexed(sqlcore::kUserMemoriesSql, "memories");
}

TEST_F(QueryPlanTest, MemoryListPagesWalkTheUpdatedIndexInOrder) {
    for (const std::string& sql : {sqlcore::kMemoryListFirstSql, sqlcore::kMemoryListAfterSql}) {
        expect_uses_index(sql, "memories_updated");
        for (const std::string& d : plan(sql))
            EXPECT_EQ(d.find("TEMP B-TREE"), std::string::npos) << "the index order serves ORDER BY: " << d;
    }
}

TEST_F(QueryPlanTest, TheMemoryFeedAndTheEmbeddersWorkAreIndexRanges) {
    expect_uses_index(sqlcore::kMemoryChangesSql, "memories_change");
    expect_indexed(sqlcore::kMemoryRemovalsAfterSql, "memory_removals");
    expect_uses_index(sqlcore::kMemoryPendingSql, "memories_pending");
}

TEST_F(QueryPlanTest, TheMemoriesCapturedFromASessionAreAnIndexRange) {
    expect_uses_index(sqlcore::kMemoryCapturedSql, "memories_source");
}

TEST_F(QueryPlanTest, TheMemorySweepFindsExactlyTheRowsDue) {
    expect_uses_index(sqlcore::kMemoriesExpiredSql, "memories_expiry");
    expect_uses_index(sqlcore::kMemoryExpiredOfAppSql, "memories_expiry");
    expect_uses_index(sqlcore::kMemoryRemovalsDueSql, "memory_removals_age");
}

// Keyword recall's candidates for the whole app: the posting list leads,
// one row read per memory holding the words, never every memory of the app
// through its index (what `? IS NULL OR user = ?` did). One user's recall
// reads that user's term lists (a range of memories_recall) instead.
TEST_F(QueryPlanTest, AppWideKeywordRecallCandidatesComeFromThePostingList) {
    std::string app_plan;
    for (const std::string& d : plan(kDialect.memory_match_app)) app_plan += d + "\n";
    EXPECT_NE(app_plan.find("SEARCH memories USING INTEGER PRIMARY KEY (rowid=?)"), std::string::npos) << app_plan;
    EXPECT_EQ(app_plan.find("(app=?)"), std::string::npos) << app_plan;
}

// The user's BM25 totals read memories_scope alone: no table row (each
// holding its vector) per memory of the user.
TEST_F(QueryPlanTest, AUsersRecallScopeAndItsTotalsReadOneIndexAlone) {
    std::string all;
    for (const std::string& d :
         plan(std::string("SELECT COUNT(*), SUM(word_count) FROM memories WHERE ") + sqlcore::kMemoryUserScopeSql))
        all += d + "\n";
    EXPECT_NE(all.find("USING COVERING INDEX memories_scope (app=? AND user=?)"), std::string::npos) << all;
}

// A user's keyword recall ranks from memories_recall alone: the term lists,
// word counts and tie-breakers of the user's memories are one index range,
// with no table row (text, metadata, vector) read per memory.
TEST_F(QueryPlanTest, AUsersKeywordRecallReadsItsTermListsFromOneIndexAlone) {
    std::string all;
    for (const std::string& d : plan(sqlcore::kMemoryRecallUserSql)) all += d + "\n";
    EXPECT_NE(all.find("USING COVERING INDEX memories_recall (app=? AND user=?)"), std::string::npos) << all;
}

// SQLite plans a statement again whenever a parameter it compared with a
// partial index's condition takes a new value: `expires_at > ?` against
// `WHERE expires_at > 0` (sessions_live_expiry, memories_expiry) read the
// parameter, and `now` is new on every call, so every read of a scope was
// parsed and planned anew. The statements write `+?`, which the planner
// does not compare.
TEST_F(QueryPlanTest, StatementsComparingNowAreNotPlannedAgainOnEachCall) {
    const std::vector<std::string> statements = {
        question_scope_sql(true), question_scope_sql(false), kListUserSessionsSql, kListAppSessionsSql,
        sqlcore::kMemoryRecallUserSql, sqlcore::kSearchTotalsSql,
        std::string("SELECT COUNT(*) FROM memories WHERE ") + sqlcore::kMemoryAppScopeSql};
    for (const std::string& sql : statements) {
        sqlite3_stmt* stmt = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(raw_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(raw_);
        for (int64_t now = 1; now <= 3; ++now) {
            // Every parameter a new value each call, as `now` is.
            for (int p = 1; p <= sqlite3_bind_parameter_count(stmt); ++p) sqlite3_bind_int64(stmt, p, now);
            while (sqlite3_step(stmt) == SQLITE_ROW) {
            }
            sqlite3_reset(stmt);
        }
        EXPECT_EQ(sqlite3_stmt_status(stmt, SQLITE_STMTSTATUS_REPREPARE, 0), 0) << sql;
        sqlite3_finalize(stmt);
    }
}

}  // namespace
}  // namespace mnemo::sqlite::test
