// The sqlite backend indexes appended events for search after answering
// them (its writer's idle time, in batches), checked through the real binary
// with that indexing held back (MNEMO_SQLITE_TEST_HOLD_INDEXING, read by the
// plugin for tests): an event is found by search as soon as its append is
// answered; SIGTERM indexes the tail before exiting; SIGKILL loses no
// acknowledged event and the restarted daemon indexes what was left, FTS5's
// integrity-check passing after each.
#include "fixture.h"
#include "sqlite_daemon_config.h"

#include <sqlite3.h>

#include <csignal>
#include <cstdlib>

namespace mnemo::integration {
namespace {

constexpr const char* kHoldIndexingEnv = "MNEMO_SQLITE_TEST_HOLD_INDEXING";

// The daemon's file, read beside it (WAL lets a reader in while it runs).
class TailDbFile {
public:
    explicit TailDbFile(const std::string& path) {
        ok_ = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK;
    }
    ~TailDbFile() { sqlite3_close(db_); }
    TailDbFile(const TailDbFile&) = delete;
    TailDbFile& operator=(const TailDbFile&) = delete;
    int64_t number(const std::string& sql) {
        sqlite3_stmt* stmt = nullptr;
        if (!ok_ || sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return -1;
        int64_t value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
        sqlite3_finalize(stmt);
        return value;
    }
    std::string error_of(const std::string& sql) {
        char* message = nullptr;
        int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
        std::string error = rc == SQLITE_OK ? "" : (message ? message : sqlite3_errstr(rc));
        sqlite3_free(message);
        return error;
    }

private:
    sqlite3* db_ = nullptr;
    bool ok_ = false;
};

class SqliteSearchTail : public DaemonTest {
protected:
    void TearDown() override {
        ::unsetenv(kHoldIndexingEnv);
        DaemonTest::TearDown();
    }
    // Starts (or restarts) the daemon with its indexing held or not; only the daemon sees the setting.
    void start(bool held) {
        if (held) ::setenv(kHoldIndexingEnv, "1", 1);
        if (!daemon_) {
            start_daemon(sqlite_daemon_config());
        } else {
            std::string error;
            ASSERT_TRUE(daemon_->start(&error)) << error;
        }
        ::unsetenv(kHoldIndexingEnv);
    }
    std::string db_path() const { return daemon_->dir() + "/mnemo.db"; }
    // Events appended but not indexed yet: above the plugin's search mark.
    int64_t unindexed() {
        TailDbFile file(db_path());
        return file.number("SELECT count(*) FROM events WHERE rowid > (SELECT up_to FROM search_indexed)");
    }
    // events_words needs the plugin's tokenizer to be read (unit_sqlite checks
    // its integrity); from outside, its shadow table counts the documents it
    // holds, and events_trigrams (a built-in tokenizer) checks itself.
    void expect_indexes_consistent(const std::string& after, int64_t documents) {
        TailDbFile file(db_path());
        EXPECT_EQ(file.number("SELECT count(*) FROM events_words_docsize"), documents) << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')"), "")
            << after;
    }
    // How many hits (up to 50) a search for q gives, all in session s.
    int64_t hits_in(const std::string& q, const std::string& s) {
        auto found = call("GET", "/v1/apps/shop/search?q=" + q + "&context=0&limit=10&max_hits=50");
        EXPECT_EQ(found.status, 200) << found.body;
        if (json_string(found.body, "/results/0/session/id") != s) return 0;
        int64_t n = 0;
        while (json_int(found.body, "/results/0/hits/" + std::to_string(n) + "/seq")) ++n;
        return n;
    }
    // Appends n events (in batches of 10) holding `word`, each answered 200.
    void append_words(const std::string& s, const std::string& word, int n) {
        for (int done = 0; done < n; done += 10) {
            std::string body = R"({"events":[)";
            for (int i = done; i < done + 10 && i < n; ++i)
                body += std::string(i > done ? "," : "") + R"({"author":"user","content":{"text":")" + word +
                        " number " + std::to_string(i) + R"( 東京の天気"}})";
            auto appended = call("POST", session_path(s) + "/events", body + "]}");
            ASSERT_EQ(appended.status, 200) << appended.body;
        }
    }
};

TEST_F(SqliteSearchTail, AnAppendIsFoundBySearchAsSoonAsItIsAnswered) {
    start(true);
    create_session("s1");
    append_words("s1", "zebra", 1);
    EXPECT_EQ(hits_in("zebra", "s1"), 1) << "words";
    EXPECT_EQ(hits_in("%E6%9D%B1%E4%BA%AC%E3%81%AE%E5%A4%A9%E6%B0%97", "s1"), 1) << "CJK (東京の天気)";
    EXPECT_EQ(unindexed(), 1) << "found from the unindexed tail";
}

TEST_F(SqliteSearchTail, SigtermIndexesTheTailBeforeExiting) {
    start(true);
    create_session("s1");
    append_words("s1", "zebra", 40);
    ASSERT_EQ(unindexed(), 40);
    daemon_->send_signal(SIGTERM);
    ASSERT_EQ(daemon_->wait_exit(std::chrono::milliseconds(kPatience)), 0);
    {
        TailDbFile file(db_path());
        EXPECT_EQ(file.number("SELECT up_to FROM search_indexed"), file.number("SELECT max(rowid) FROM events"));
    }
    expect_indexes_consistent("after SIGTERM", 40);
    start(true);
    EXPECT_EQ(unindexed(), 0);
    EXPECT_EQ(hits_in("zebra", "s1"), 40) << "found through the index alone (indexing held, no tail)";
}

TEST_F(SqliteSearchTail, SigkillLosesNoAcknowledgedEventAndTheIndexCatchesUpAfterRestart) {
    start(true);
    create_session("s1");
    append_words("s1", "zebra", 30);
    daemon_->send_signal(SIGKILL);
    daemon_->wait_exit(std::chrono::milliseconds(kPatience));
    EXPECT_EQ(unindexed(), 30) << "killed with its tail unindexed";
    start(false);
    EXPECT_EQ(hits_in("zebra", "s1"), 30) << "every acknowledged event is found at once";
    EXPECT_TRUE(eventually([&] { return unindexed() == 0; })) << "the restarted writer indexes the tail";
    EXPECT_EQ(hits_in("zebra", "s1"), 30);
    expect_indexes_consistent("after the catch-up", 30);
}

}  // namespace
}  // namespace mnemo::integration
