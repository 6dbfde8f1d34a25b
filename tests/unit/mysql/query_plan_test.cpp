// The statements whose cost would grow with the data are index range scans:
// EXPLAIN of the exact texts the plugin runs (hot_queries.h, with typical
// values in place of the parameters) over a few thousand rows shows the
// intended index and never a full scan (type ALL) of the table.
#include "event_rows.h"
#include "connection.h"
#include "hot_queries.h"
#include "memory_sql.h"
#include "search_sql.h"
#include "mysql_backend.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <set>

namespace mnemo::mysql::test {
namespace {

struct PlanRow {
    std::string table, type, key, extra;
    int64_t rows = 0;
};

class QueryPlanTest : public MysqlTest {
protected:
    void SetUp() override {
        MysqlTest::SetUp();
        {
            Backend migrate(database_);
            ASSERT_TRUE(migrate);
        }
        conn_ = server().connect(database_);
        fill();
    }
    void run(const std::string& sql) { std::unique_ptr<sql::Statement>(conn_->createStatement())->execute(sql); }

    // Sessions of 20 users; every third expires, every tenth is soft-deleted
    // (half of those wait for finalize); events of every session, one in ten
    // soft-deleted; lanes and state scopes with spread-out times.
    void fill() {
        run("INSERT INTO sessions (app, user, id, title, metadata, created_at, updated_at, expires_at, deleted_at, "
            "finalize_reason, finalize_marked_at) SELECT 'shop', CONCAT('u', seq % 20), CONCAT('s', seq), '', '{}', "
            "seq, seq, IF(seq % 3 = 0, seq * 1000, 0), IF(seq % 10 = 0, seq, 0), IF(seq % 20 = 0, 3, 0), "
            "IF(seq % 20 = 0, seq, 0) FROM seq_1_to_4000");
        run("INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, deleted_at) SELECT "
            "seq % 4000 + 1, seq, CONCAT('e', seq), 'user', 'user', '{}', seq, IF(seq % 10 = 0, seq, 0) "
            "FROM seq_1_to_40000");
        run("INSERT INTO lanes (app, lane, session_id, user, created_at, updated_at) SELECT "
            "CONCAT('app', seq % 10), CONCAT('l', seq), CONCAT('s', seq), 'u1', seq, seq FROM seq_1_to_4000");
        run("INSERT INTO state_scopes (scope, app, user, expires_at, bytes) SELECT 2, 'shop', CONCAT('u', seq), "
            "IF(seq % 2 = 0, seq, 0), 10 FROM seq_1_to_4000");
        // ANALYZE answers with rows, which must be read before the next statement.
        std::unique_ptr<sql::Statement> statement(conn_->createStatement());
        std::unique_ptr<sql::ResultSet> report(
            statement->executeQuery("ANALYZE TABLE sessions, events, lanes, state_scopes"));
        while (report->next()) {}
    }

    // The statement with each `?` replaced by the next of values.
    static std::string bound(const std::string& sql, const std::vector<std::string>& values) {
        std::string out;
        size_t next = 0;
        for (char c : sql) {
            if (c == '?' && next < values.size()) {
                out += values[next++];
            } else {
                out += c;
            }
        }
        EXPECT_EQ(next, values.size()) << "parameter count of " << sql;
        return out;
    }

    std::vector<PlanRow> plan(const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(conn_->createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery("EXPLAIN " + sql));
        std::vector<PlanRow> out;
        while (rows->next())
            out.push_back({rows->getString("table"), rows->getString("type"), rows->getString("key"),
                           rows->getString("Extra"), rows->getInt64("rows")});
        return out;
    }

    static std::string describe(const std::vector<PlanRow>& rows) {
        std::string out;
        for (const PlanRow& r : rows)
            out += r.table + " type=" + r.type + " key=" + r.key + " rows=" + std::to_string(r.rows) +
                   " extra=" + r.extra + "\n";
        return out;
    }

    // Every step reading `table` is a range or lookup through one of
    // `indexes` that reads a small part of the table, never a full scan.
    void expect_index(const std::string& sql, const std::string& table, const std::string& index,
                      bool sorted_by_index = false) {
        expect_one_of(sql, table, {index}, sorted_by_index);
    }
    void expect_one_of(const std::string& sql, const std::string& table, const std::set<std::string>& indexes,
                       bool sorted_by_index = false) {
        std::vector<PlanRow> rows = plan(sql);
        bool found = false;
        for (const PlanRow& row : rows) {
            if (row.table != table) continue;
            found = true;
            EXPECT_TRUE(row.type == "range" || row.type == "ref" || row.type == "eq_ref" || row.type == "const")
                << sql << "\n"
                << describe(rows);
            EXPECT_EQ(indexes.count(row.key), 1u) << sql << "\n" << describe(rows);
            EXPECT_LT(row.rows, 1000) << "a small part of the table: " << sql << "\n" << describe(rows);
            if (sorted_by_index) {
                EXPECT_EQ(row.extra.find("filesort"), std::string::npos) << sql << "\n" << describe(rows);
            }
        }
        EXPECT_TRUE(found) << sql << "\n" << describe(rows);
    }

    std::unique_ptr<sql::Connection> conn_;
};

const std::string kMax = "9223372036854775807";

TEST_F(QueryPlanTest, FindingASessionUsesItsKey) {
    expect_index(bound(kFindSessionSql, {"'shop'", "'u1'", "'s21'"}), "sessions", "sessions_key");
    expect_index(bound(kFindSessionSql + sqlcore::kForUpdate, {"'shop'", "'u1'", "'s21'"}), "sessions", "sessions_key");
}

TEST_F(QueryPlanTest, ListingSessionsByUpdatedAtWalksTheListIndexes) {
    expect_index(bound(kListUserSessionsSql, {"'shop'", "'u1'", kMax, kMax, kMax, "''", "0", "5", "20"}), "sessions",
                 "sessions_user_updated", true);
    expect_index(bound(kListUserSessionsSql, {"'shop'", "'u1'", "3000", "3000", "3000", "'s3000'", "0", "5", "20"}),
                 "sessions", "sessions_user_updated", true);
    // An app's list: first page, a cursor with its user, one without (an old page token).
    expect_index(
        bound(kListAppSessionsSql, {"'shop'", kMax, kMax, kMax, "NULL", "''", "NULL", "''", "3900", "5", "20"}),
        "sessions", "sessions_app_user_updated", true);
    expect_index(bound(kListAppSessionsSql,
                       {"'shop'", "3950", "3950", "3950", "'u10'", "'s3950'", "'u10'", "'s3950'", "3500", "5", "20"}),
                 "sessions", "sessions_app_user_updated", true);
    expect_index(bound(kListAppSessionsSql,
                       {"'shop'", "3950", "3950", "3950", "NULL", "'s3950'", "NULL", "'s3950'", "3500", "5", "20"}),
                 "sessions", "sessions_app_user_updated", true);
}

TEST_F(QueryPlanTest, EverySweepPartIsARangeOverTheRowsDue) {
    expect_index(bound(kExpiredSessionsSql, {"20000", "100"}), "sessions", "sessions_live_expiry");
    expect_index(bound(kExpireSessionsSql, {"20000", "20000", "20000", "100"}), "sessions", "sessions_live_expiry");
    expect_index(bound(kPurgeableSessionsSql, {"100", "100"}), "sessions", "sessions_purgeable");
    expect_index(bound(kExpiredScopesSql, {"50", "100"}), "state_scopes", "state_scopes_expiry");
    expect_index(bound(kPurgeDeletedEventsSql, {"200", "100"}), "events", "events_deleted");
    expect_index(bound(kDeletedEventsDueSql, {"200", "1"}), "events", "events_deleted");
    expect_index(bound(kPruneLanesSql, {"50", "100"}), "lanes", "lanes_updated");
    expect_index(bound(kLanesDueSql, {"50", "1"}), "lanes", "lanes_updated");
}

TEST_F(QueryPlanTest, TheFinalizeListWalksPendingMarksOnly) {
    expect_index(bound(kFinalizePendingSql, {"0", "1", "100"}), "sessions", "sessions_finalize_due", true);
}

// Any index that pins the session serves these: the primary key (sid, seq),
// events_visible (sid, deleted_at, seq), or events_deleted, which InnoDB
// extends with the primary key to (deleted_at, sid, seq).
const std::set<std::string> kSessionEventIndexes{"PRIMARY", "events_visible", "events_deleted"};

TEST_F(QueryPlanTest, ReadingAndEvictingEventsStaysInsideTheSession) {
    expect_one_of(bound(event_select_sql(kDialect, EventQueryShape{}), {"7", "0", "100"}), "events",
                  kSessionEventIndexes, true);
    EventQueryShape recent;
    recent.num_recent = true;
    expect_one_of(bound(event_select_sql(kDialect, recent), {"7", "0", "5", "100"}), "events", kSessionEventIndexes);
    EventQueryShape all;
    all.include_deleted = true;
    expect_one_of(bound(event_select_sql(kDialect, all), {"7", "0", "100"}), "events", {"PRIMARY"}, true);
    expect_one_of(bound(kEvictCutoffSql, {"7", "3"}), "events", kSessionEventIndexes);
    expect_one_of(bound(kEvictSql, {"7", "50"}), "events", kSessionEventIndexes);
}

// Search candidates' parameters (sql/search_hits.h CandidateSource): no
// session, channel or role filter, then the app's scope (app, now, no user),
// then the source's boolean-mode expression.
TEST_F(QueryPlanTest, SearchCandidatesComeFromTheFulltextIndex) {
    const std::vector<std::string> values{"NULL",   "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
                                          "'shop'", "0",    "NULL", "NULL", "'w6162 w636f6e666967'"};
    std::vector<PlanRow> rows = plan(bound(kSearchMatchSql, values));
    ASSERT_EQ(rows.size(), 2u) << describe(rows);
    EXPECT_EQ(rows[0].table, "e") << describe(rows);
    EXPECT_EQ(rows[0].type, "fulltext") << describe(rows);
    EXPECT_EQ(rows[0].key, "events_search") << describe(rows);
    EXPECT_EQ(rows[1].table, "s") << describe(rows);
    EXPECT_EQ(rows[1].type, "eq_ref") << describe(rows);
    EXPECT_EQ(rows[1].key, "PRIMARY") << describe(rows);
}

// A user's BM25 totals read memories_scope alone ("Using index"), not the
// clustered row (vector and all) of every memory of the user.
TEST_F(QueryPlanTest, AUsersRecallTotalsReadTheScopeIndexAlone) {
    std::vector<PlanRow> rows =
        plan(bound(std::string("SELECT COUNT(*), SUM(word_count) FROM memories WHERE ") + sqlcore::kMemoryUserScopeSql,
                   {"'shop'", "'u1'", "5"}));
    ASSERT_EQ(rows.size(), 1u) << describe(rows);
    EXPECT_EQ(rows[0].key, "memories_scope") << describe(rows);
    EXPECT_NE(rows[0].extra.find("Using index"), std::string::npos) << describe(rows);
}

// A user's keyword recall reads the user's memories as one range of an
// index on (app, user, ...), never the app's (InnoDB keeps the long term
// lists and vectors off the rows' pages: each row read is one look-up).
TEST_F(QueryPlanTest, AUsersKeywordRecallReadsTheUsersRangeOfAnIndex) {
    std::vector<PlanRow> rows = plan(bound(sqlcore::kMemoryRecallUserSql, {"'shop'", "'u1'", "5"}));
    ASSERT_EQ(rows.size(), 1u) << describe(rows);
    EXPECT_TRUE(rows[0].key == "memories_scope" || rows[0].key == "memories_id" || rows[0].key == "memories_updated")
        << describe(rows);
    EXPECT_TRUE(rows[0].type == "ref" || rows[0].type == "range") << describe(rows);
}

TEST_F(QueryPlanTest, SearchContextAndRecentSessionsUseTheirIndexes) {
    expect_one_of(bound(sqlcore::search_context_sql(kEventColumns), {"7", "7", "5", "2", "5", "7", "5", "2", "5"}),
                  "events", kSessionEventIndexes);
    // kSearchSessionFilters: app, now, no user, session or channel filter; then the limit.
    const std::vector<std::string> values{"'shop'", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "20"};
    std::vector<PlanRow> rows = plan(bound(kSearchRecentSql, values));
    ASSERT_EQ(rows.size(), 1u) << describe(rows);
    EXPECT_EQ(rows[0].key, "sessions_app_user_updated") << describe(rows);
    EXPECT_EQ(rows[0].extra.find("filesort"), std::string::npos) << describe(rows);
}

TEST_F(QueryPlanTest, ListingLanesWalksTheAppIndex) {
    expect_index(bound(kListLanesSql, {"'app3'", kMax, kMax, kMax, "''", "0", "20"}), "lanes", "lanes_app_updated",
                 true);
}

}  // namespace
}  // namespace mnemo::mysql::test
