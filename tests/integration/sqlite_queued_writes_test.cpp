// Writes other than appends on the sqlite backend are queued to its writer
// without a libuv pool thread waiting on each, checked through the real
// binary with a pool of two threads and the database's write lock held by
// the test: a burst of state patches larger than the pool does not hold up a
// read, a queued write that fails answers its own error, and SIGTERM with
// writes queued answers every one of them, each acknowledged write found
// after a restart.
#include "fixture.h"

#include <sqlite3.h>

#include <csignal>
#include <cstdlib>
#include <thread>

namespace mnemo::integration {
namespace {

constexpr int kPoolThreads = 2;
constexpr int kBurst = 8;  // state patches in flight at once, more than the pool has threads

// busy_timeout far beyond the test: the writer waits for the test's lock
// instead of giving up on it.
std::string config() {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "  idle_timeout: 2s\n"
           "storage:\n"
           "  plugin: sqlite\n"
           "  plugin_dir: @PLUGIN_DIR@\n"
           "  options: {path: @DIR@/mnemo.db, synchronous: normal, busy_timeout: 120s}\n"
           "summary:\n"
           "  enabled: false\n";
}

// The database's write lock, taken from outside the daemon: its writer
// thread waits in BEGIN IMMEDIATE while WAL readers go on.
class WriteLock {
public:
    explicit WriteLock(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) return;
        sqlite3_busy_timeout(db_, 10000);
        held_ = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    ~WriteLock() {
        release();
        sqlite3_close(db_);
    }
    WriteLock(const WriteLock&) = delete;
    WriteLock& operator=(const WriteLock&) = delete;
    bool held() const { return held_; }
    void release() {
        if (held_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        held_ = false;
    }

private:
    sqlite3* db_ = nullptr;
    bool held_ = false;
};

class SqliteQueuedWrites : public DaemonTest {
protected:
    // The daemon keeps a UV_THREADPOOL_SIZE it inherits; the test process's own is restored.
    void SetUp() override {
        const char* before = std::getenv("UV_THREADPOOL_SIZE");
        if (before != nullptr) saved_pool_ = before;
        ::setenv("UV_THREADPOOL_SIZE", std::to_string(kPoolThreads).c_str(), 1);
        start_daemon(config());
        if (saved_pool_) {
            ::setenv("UV_THREADPOOL_SIZE", saved_pool_->c_str(), 1);
        } else {
            ::unsetenv("UV_THREADPOOL_SIZE");
        }
    }

    std::string db_path() const { return daemon_->dir() + "/mnemo.db"; }

    // Sends the patches of keys k0..k<n-1>, one connection each, without reading the answers.
    std::vector<HttpConnection> send_patches(int n) {
        std::vector<HttpConnection> connections;
        for (int i = 0; i < n; ++i) {
            connections.push_back(HttpConnection::tcp(daemon_->port()));
            std::string body = R"({"state_delta":{"k)" + std::to_string(i) + R"(":)" + std::to_string(i) + "}}";
            EXPECT_TRUE(connections.back().send_raw(format_request("PATCH", session_path("s") + "/state", body)));
        }
        // Long enough for the daemon to take every patch off its socket and start it, so a
        // read sent next finds whatever the patches hold (a parked pool thread each, before).
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        return connections;
    }

private:
    std::optional<std::string> saved_pool_;
};

TEST_F(SqliteQueuedWrites, BurstOfStatePatchesLargerThanThePoolDoesNotHoldUpARead) {
    create_session("s");
    append_text("s", "before the lock");
    WriteLock lock(db_path());
    ASSERT_TRUE(lock.held());
    std::vector<HttpConnection> patches = send_patches(kBurst);

    auto read = call("GET", session_path("s") + "/events");
    EXPECT_EQ(read.status, 200) << read.body;
    EXPECT_NE(read.body.find("before the lock"), std::string::npos) << read.body;
    // The patches wait for the writer, which waits for the lock: none answered yet.
    for (auto& connection : patches) EXPECT_FALSE(connection.wait_for_bytes("HTTP/1.1", std::chrono::milliseconds(1)));

    lock.release();
    for (auto& connection : patches) {
        auto answer = connection.read_response(std::chrono::milliseconds(kPatience));
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->status, 200) << answer->body;
    }
    auto state = call("GET", session_path("s"));
    for (int i = 0; i < kBurst; ++i)
        EXPECT_EQ(json_int(state.body, "/session/state/k" + std::to_string(i)), i) << state.body;
}

TEST_F(SqliteQueuedWrites, QueuedWriteThatFailsAnswersItsOwnError) {
    create_session("s");
    auto conflict = call("PATCH", session_path("s") + "/state", R"({"state_delta":{"a":1},"expected_version":99})");
    expect_error(conflict, 409, "conflict");
    auto missing = call("PATCH", session_path("nope") + "/state", R"({"state_delta":{"a":1}})");
    expect_error(missing, 404, "not_found");
    auto rewind_missing = call("POST", session_path("nope") + "/rewind", R"({"turns":1})");
    expect_error(rewind_missing, 404, "not_found");
    auto summary_missing = call("POST", session_path("nope") + "/summaries", R"({"text":"x"})");
    expect_error(summary_missing, 404, "not_found");
    // A failed write undid only itself: the next one on the same session goes through.
    auto ok = call("PATCH", session_path("s") + "/state", R"({"state_delta":{"a":2}})");
    EXPECT_EQ(ok.status, 200) << ok.body;
    EXPECT_EQ(json_int(ok.body, "/state/a"), 2) << ok.body;
    auto duplicate = call("POST", kSessions, R"({"id":"s"})");
    expect_error(duplicate, 409, "already_exists");
}

TEST_F(SqliteQueuedWrites, SigtermWithQueuedWritesAnswersEachAndLosesNoAcknowledgedOne) {
    create_session("s");
    auto lock = std::make_unique<WriteLock>(db_path());
    ASSERT_TRUE(lock->held());
    std::vector<HttpConnection> patches = send_patches(kBurst);
    daemon_->send_signal(SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    lock.reset();

    std::vector<int> acknowledged;
    for (int i = 0; i < kBurst; ++i) {
        auto answer = patches[static_cast<size_t>(i)].read_response(std::chrono::milliseconds(kPatience));
        ASSERT_TRUE(answer) << "patch k" << i << " got no answer";
        if (answer->status == 200) {
            acknowledged.push_back(i);
        } else {
            EXPECT_EQ(answer->status, 503) << answer->body;
        }
    }
    EXPECT_EQ(daemon_->wait_exit(std::chrono::milliseconds(kPatience)), 0);
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    auto state = call("GET", session_path("s"));
    ASSERT_EQ(state.status, 200) << state.body;
    for (int i : acknowledged) EXPECT_EQ(json_int(state.body, "/session/state/k" + std::to_string(i)), i) << state.body;
    std::printf("SIGTERM with %d queued patches: %zu acknowledged\n", kBurst, acknowledged.size());
}

}  // namespace
}  // namespace mnemo::integration
