// What is the mysql backend's own about long-term memories (the operations
// themselves are the shared tests of tests/unit/memory/memories/): a
// database of the previous step gains memories with its rows intact;
// daemons sharing the database write memories at once and the change feed
// stays in commit order, so a follower never skips a change; the
// statements whose cost grows with the memories are index ranges.
#include "memory_sql.h"
#include "migrations.h"
#include "mysql_backend.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <atomic>
#include <set>
#include <thread>

namespace mnemo::mysql::test {
namespace {

class MysqlMemories : public MysqlTest {
protected:
    void run(const std::string& sql) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement>(conn->createStatement())->execute(sql);
    }
    // The database as the steps before `version` leave it.
    void migrate_before(int version) {
        run(kSchemaVersionTable);
        for (const Migration* step : kMigrations) {
            if (step->version == version) break;
            for (const char* statement : step->statements) run(statement);
            run("INSERT INTO schema_version (version) VALUES (" + std::to_string(step->version) + ")");
        }
    }
    std::string scalar(const std::string& sql) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement> statement(conn->createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(sql));
        return rows->next() ? std::string(rows->getString(1)) : std::string();
    }
};

// Writes one memory of user u1 with a client id; MNEMO_OK or the error.
int write_memory(const Backend& backend, const std::string& id, mnemo_error* err = nullptr) {
    mnemo_memory_input in{};
    in.id = S(id);
    in.id_from_client = 1;
    const std::string text = "memory " + id;
    in.text = S(text);
    in.folded_text = S(text);
    mnemo_memory_write_req req{S("shop"), S("u1"), &in, 1, 0, 0, kNow};
    mnemo_error local{};
    return ops().memory_write(backend.get(), &req, nullptr, err ? err : &local);
}

struct FeedPage {
    std::vector<int64_t> seqs, keys;
    mnemo_memory_feed_result result{};
};

FeedPage changes(const Backend& backend, int64_t after_seq, int64_t limit = 1000) {
    mnemo_memory_changes_req req{after_seq, limit};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_changes(backend.get(), &req, sink.get(), &err), MNEMO_OK) << err.message;
    const Rows out = sink.out();
    FeedPage page{{}, {}, out.feed};
    for (const storage::MemoryRow& m : out.memories) {
        page.seqs.push_back(m.change_seq);
        page.keys.push_back(m.key);
    }
    return page;
}

TEST_F(MysqlMemories, ADatabaseOfThePreviousStepGainsMemoriesWithItsRowsIntact) {
    migrate_before(kMemoriesVersion);
    run("INSERT INTO sessions (app, user, id, title, metadata, created_at, updated_at) "
        "VALUES ('shop', 'u1', 'old', '', '{}', 1, 1)");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(backend.get("old", 2).rc, MNEMO_OK);
    mnemo_error err{};
    ASSERT_EQ(write_memory(backend, "m1", &err), MNEMO_OK) << err.message;
    EXPECT_EQ(scalar("SELECT MAX(version) FROM schema_version"), std::to_string(kSchemaVersion));
    EXPECT_EQ(scalar("SELECT CONCAT(row_key, ' ', change_seq) FROM memories"), "1 1");
    EXPECT_NE(scalar("SELECT search_tokens FROM memories"), "") << "keyword recall's tokens are written";
}

// The extraction cursor's step (migrations.h): a database of the step
// before it gains sessions.extracted_seq at 0 for its sessions; the cursor
// then moves from 0 (compare-and-set) without moving the session's version.
TEST_F(MysqlMemories, ADatabaseOfTheStepBeforeTheCursorGainsItAtZero) {
    migrate_before(kExtractCursorVersion);
    run("INSERT INTO sessions (app, user, id, title, metadata, created_at, updated_at, version, last_seq) "
        "VALUES ('shop', 'u1', 'old', '', '{}', 1, 1, 4, 2)");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(scalar("SELECT MAX(version) FROM schema_version"), std::to_string(kSchemaVersion));
    mnemo_extracted_req moved{{S("shop"), S("u1"), S("old")}, kNow, 0, 2};
    mnemo_error err{};
    EXPECT_EQ(ops().session_extracted(backend.get(), &moved, nullptr, &err), MNEMO_OK) << err.message;
    EXPECT_EQ(scalar("SELECT CONCAT(extracted_seq, ' ', version) FROM sessions WHERE id = 'old'"), "2 4");
}

// The term lists' step (migrations.h kMemoryTermsVersion): the memories of
// a database of the step before gain their host terms, counted, at open; a
// user's keyword recall then ranks them from the lists.
TEST_F(MysqlMemories, ADatabaseOfTheStepBeforeTheTermListsGainsThemAtOpen) {
    migrate_before(kMemoryTermsVersion);
    run("INSERT INTO memories (app, user, id, text, folded_text, word_count, metadata, created_at, updated_at, "
        "change_seq) VALUES ('shop', 'u1', 'm1', 'Runs marathons on weekends', 'runs marathons on weekends', 4, "
        "'{}', 1, 1, 1), ('shop', 'u1', 'm2', 'prefers aisle seats', 'prefers aisle seats', 3, '{}', 1, 2, 2)");
    run("UPDATE memory_feed SET last_seq = 2");
    Backend backend(database_);
    ASSERT_TRUE(backend);
    EXPECT_EQ(scalar("SELECT MAX(version) FROM schema_version"), std::to_string(kSchemaVersion));
    EXPECT_EQ(scalar("SELECT CONCAT(terms, '/', word_count) FROM memories WHERE id = 'm1'"),
              "run marathon on weekend/4");
    EXPECT_EQ(scalar("SELECT COUNT(*) FROM memories WHERE terms IS NULL"), "0");
    EXPECT_EQ(scalar("SELECT CONCAT(documents, '/', length) FROM memory_app_stats WHERE app = 'shop'"), "2/7");
    EXPECT_EQ(scalar("SELECT documents FROM memory_term_stats WHERE app = 'shop' AND term = 'aisl'"), "1");
    Answer recalled = backend.recall("who is running on the weekend?");
    ASSERT_EQ(recalled.rc, MNEMO_OK) << recalled.err.message;
    EXPECT_EQ(recalled.out.hit_ids(), std::vector<std::string>{"m1"});
}

// Two backends (two daemons) write at once while a follower reads the feed
// from its cursor: every change it ever sees is in change_seq order, and at
// the end it has seen every memory, so no change committed behind its cursor.
TEST_F(MysqlMemories, TwoBackendsWritingAtOnceKeepTheFeedInCommitOrder) {
    Backend first(database_, 4), second(database_, 4), follower(database_, 2);
    ASSERT_TRUE(first && second && follower);
    constexpr int kPerWriter = 60;
    std::atomic<int> failures{0};
    auto writer = [&](const Backend& backend, const std::string& prefix) {
        for (int i = 0; i < kPerWriter; ++i)
            if (write_memory(backend, prefix + std::to_string(i)) != MNEMO_OK) ++failures;
    };
    std::atomic<bool> writing{true};
    std::set<int64_t> seen;
    int64_t cursor = 0, out_of_order = 0;
    std::thread follow([&] {
        for (bool last_round = false; !last_round;) {
            last_round = !writing.load();
            FeedPage page = changes(follower, cursor);
            for (size_t i = 0; i < page.seqs.size(); ++i) {
                if (page.seqs[i] <= cursor) ++out_of_order;
                cursor = page.seqs[i];
                seen.insert(page.keys[i]);
            }
            if (page.result.last_seq > cursor) cursor = page.result.last_seq;
        }
    });
    std::thread a(writer, std::cref(first), "a"), b(writer, std::cref(second), "b");
    a.join();
    b.join();
    writing = false;
    follow.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(out_of_order, 0);
    EXPECT_EQ(seen.size(), static_cast<size_t>(2 * kPerWriter)) << "a change committed behind the cursor was skipped";
    FeedPage all = changes(follower, 0);
    ASSERT_EQ(all.seqs.size(), static_cast<size_t>(2 * kPerWriter));
    EXPECT_EQ(all.seqs.back(), 2 * kPerWriter) << "one seq per change, none lost to a rolled-back attempt";
}

// Writes (or rewrites) memory id of user u1 with text.
void write_text(const Backend& backend, const std::string& id, const std::string& text) {
    mnemo_memory_input in{};
    in.id = S(id);
    in.id_from_client = 1;
    in.text = S(text);
    in.folded_text = S(text);
    mnemo_memory_write_req req{S("shop"), S("u1"), &in, 1, 0, 0, kNow};
    mnemo_error err{};
    ASSERT_EQ(ops().memory_write(backend.get(), &req, nullptr, &err), MNEMO_OK) << err.message;
}

// The ids an app-wide keyword recall of q answers, best first.
std::vector<std::string> app_recall(const Backend& backend, const std::string& q) {
    mnemo_memory_search_req req{};
    req.filter.app = S("shop");
    req.filter.now_us = kNow;
    req.q = S(q);
    req.limit = 10;
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_search(backend.get(), &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out().hit_ids();
}

// An app-wide question reads postings the backend keeps in memory
// (recall_cache.h): they follow the change feed, so what another daemon
// writes, rewrites and deletes is answered at once.
TEST_F(MysqlMemories, AnAppWideRecallFollowsWhatAnotherBackendWrites) {
    Backend writer(database_, 2), reader(database_, 2);
    ASSERT_TRUE(writer && reader);
    write_text(writer, "m1", "alpha beta");
    EXPECT_EQ(app_recall(reader, "alpha"), (std::vector<std::string>{"m1"}));
    write_text(writer, "m2", "alpha alpha");
    EXPECT_EQ(app_recall(reader, "alpha"), (std::vector<std::string>{"m2", "m1"}));
    mnemo_memory_delete_req gone{{S("shop"), S("u1"), S("m1"), kNow}};
    mnemo_error err{};
    ASSERT_EQ(ops().memory_delete(writer.get(), &gone, nullptr, &err), MNEMO_OK) << err.message;
    EXPECT_EQ(app_recall(reader, "alpha"), (std::vector<std::string>{"m2"}));
    write_text(writer, "m2", "gamma");
    EXPECT_TRUE(app_recall(reader, "alpha").empty());
    EXPECT_EQ(app_recall(reader, "gamma"), (std::vector<std::string>{"m2"}));
}

class MysqlMemoryPlans : public MysqlMemories {
protected:
    void SetUp() override {
        MysqlMemories::SetUp();
        {
            Backend migrate(database_);
            ASSERT_TRUE(migrate);
        }
        conn_ = server().connect(database_);
        // 4000 memories of 20 users, a third expiring, a tenth pending, half captured from 50 sessions;
        // removals spread over time.
        exec(
            "INSERT INTO memories (app, user, id, name_space, text, folded_text, metadata, source_session, "
            "source_seq, embedding, created_at, updated_at, expires_at, change_seq) SELECT 'shop', "
            "CONCAT('u', seq % 20), CONCAT('m', seq), '', CONCAT('text ', seq), CONCAT('text ', seq), '{}', "
            "IF(seq % 2 = 0, CONCAT('s', seq % 50), NULL), seq, IF(seq % 10 = 0, 1, 0), seq, seq, "
            "IF(seq % 3 = 0, seq * 1000, 0), seq FROM seq_1_to_4000");
        exec(
            "INSERT INTO memory_removals (change_seq, row_key, app, user, removed_at) SELECT 4000 + seq, 4000 + seq, "
            "'shop', 'u1', seq FROM seq_1_to_4000");
        std::unique_ptr<sql::Statement> statement(conn_->createStatement());
        std::unique_ptr<sql::ResultSet> report(statement->executeQuery("ANALYZE TABLE memories, memory_removals"));
        while (report->next()) {}
    }
    void exec(const std::string& sql) { std::unique_ptr<sql::Statement>(conn_->createStatement())->execute(sql); }

    static std::string bound(const std::string& sql, const std::vector<std::string>& values) {
        std::string out;
        size_t next = 0;
        for (char c : sql) out += c == '?' && next < values.size() ? values[next++] : std::string(1, c);
        EXPECT_EQ(next, values.size()) << "parameter count of " << sql;
        return out;
    }

    // The plan reads `table` through `index` as a range or lookup of a small part, sorted by it when asked.
    void expect_index(const std::string& sql, const std::string& table, const std::string& index, bool sorted = false) {
        std::unique_ptr<sql::Statement> statement(conn_->createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery("EXPLAIN " + sql));
        bool found = false;
        while (rows->next()) {
            if (rows->getString("table") != table) continue;
            found = true;
            const std::string type = rows->getString("type"), key = rows->getString("key");
            const std::string extra = rows->getString("Extra");
            EXPECT_TRUE(type == "range" || type == "ref" || type == "eq_ref" || type == "const") << sql << " " << type;
            EXPECT_EQ(key, index) << sql;
            EXPECT_LT(rows->getInt64("rows"), 1000) << sql;
            if (sorted) {
                EXPECT_EQ(extra.find("filesort"), std::string::npos) << sql << " " << extra;
            }
        }
        EXPECT_TRUE(found) << sql;
    }

    std::unique_ptr<sql::Connection> conn_;
};

TEST_F(MysqlMemoryPlans, LookUpsByIdAndDedupeTextUseTheirIndexes) {
    expect_index(bound(sqlcore::kMemoryByIdSql, {"'shop'", "'u1'", "'m21'"}), "memories", "memories_id");
    expect_index(bound(sqlcore::kMemoryByTextSql, {"'shop'", "'u1'", "''", "'text 21'", "0"}), "memories",
                 "memories_folded");
}

TEST_F(MysqlMemoryPlans, ListPagesWalkTheUpdatedIndexInOrder) {
    // The status set (0: any, then each status or -1) comes after the session filter.
    const std::vector<std::string> any_status{"0", "-1", "-1", "-1", "-1"};
    std::vector<std::string> first{"'shop'", "'u1'", "0", "NULL", "NULL", "NULL", "NULL"};
    first.insert(first.end(), any_status.begin(), any_status.end());
    std::vector<std::string> after = first;
    first.push_back("51");
    after.insert(after.end(), {"2001", "2001", "'m2001'", "51"});
    expect_index(bound(sqlcore::kMemoryListFirstSql, first), "memories", "memories_updated", true);
    expect_index(bound(sqlcore::kMemoryListAfterSql, after), "memories", "memories_updated", true);
    // A status filter is checked on the rows the index walk reads: the same plan.
    first[7] = "4";
    first[10] = "2";
    expect_index(bound(sqlcore::kMemoryListFirstSql, first), "memories", "memories_updated", true);
}

TEST_F(MysqlMemoryPlans, TheFeedTheEmbedderAndTheSweepReadIndexRanges) {
    expect_index(bound(sqlcore::kMemoryChangesSql, {"3900", "101"}), "memories", "memories_change", true);
    expect_index(bound(sqlcore::kMemoryRemovalsAfterSql, {"7900", "101"}), "memory_removals", "PRIMARY", true);
    expect_index(bound(sqlcore::kMemoryPendingSql, {"3900", "0", "100"}), "memories", "memories_pending", true);
    expect_index(bound(sqlcore::kMemoriesExpiredSql, {"20000", "101"}), "memories", "memories_expiry", true);
    expect_index(bound(sqlcore::kMemoryRemovalsDueSql, {"50", "101"}), "memory_removals", "memory_removals_age", true);
}

TEST_F(MysqlMemoryPlans, TheMemoriesCapturedFromASessionAreAnIndexRange) {
    expect_index(bound(sqlcore::kMemoryCapturedSql, {"'shop'", "'u2'", "'s2'", "1000", "0"}), "memories",
                 "memories_source");
}

}  // namespace
}  // namespace mnemo::mysql::test
