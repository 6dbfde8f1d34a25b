// Writes other than appends on the sqlite backend are queued to its writer
// without a libuv pool thread waiting on each, checked through the real
// binary with a pool of two threads and the database's write lock held by
// the test: a burst of state patches, lane writes or memory writes (through
// the route or MCP's remember and forget) larger than the pool does not hold
// up a read, a queued write that fails answers its own error, and SIGTERM
// with writes queued answers every one of them and exits 0, each
// acknowledged write found after a restart.
#include "fixture.h"
#include "sqlite_daemon_config.h"

#include <sqlite3.h>

#include <csignal>
#include <cstdlib>
#include <functional>
#include <thread>

namespace mnemo::integration {
namespace {

constexpr int kPoolThreads = 2;
constexpr int kBurst = 8;  // state patches in flight at once, more than the pool has threads

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
        // busy_timeout far beyond the test: the writer waits for the test's
        // lock instead of giving up on it.
        start_daemon(sqlite_daemon_config(", busy_timeout: 120s"));
        if (saved_pool_) {
            ::setenv("UV_THREADPOOL_SIZE", saved_pool_->c_str(), 1);
        } else {
            ::unsetenv("UV_THREADPOOL_SIZE");
        }
    }

    std::string db_path() const { return daemon_->dir() + "/mnemo.db"; }

    struct Request {
        std::string method, target, body;
        Headers headers;
    };
    // Sends request(0..n-1), one connection each, without reading the answers.
    std::vector<HttpConnection> send_burst(int n, const std::function<Request(int)>& request) {
        std::vector<HttpConnection> connections;
        for (int i = 0; i < n; ++i) {
            connections.push_back(HttpConnection::tcp(daemon_->port()));
            Request r = request(i);
            EXPECT_TRUE(connections.back().send_raw(format_request(r.method, r.target, r.body, r.headers)));
        }
        // Long enough for the daemon to take every request off its socket and start it, so a
        // read sent next finds whatever the writes hold (a parked pool thread each, before).
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        return connections;
    }

    // The patches of keys k0..k<n-1> on session s.
    std::vector<HttpConnection> send_patches(int n) {
        return send_burst(n, [](int i) {
            return Request{"PATCH",
                           session_path("s") + "/state",
                           R"({"state_delta":{"k)" + std::to_string(i) + R"(":)" + std::to_string(i) + "}}",
                           {}};
        });
    }

    // Suspends lanes l0..l<n-1>, resolved beforehand.
    std::vector<HttpConnection> send_lane_suspends(int n) {
        return send_burst(n, [](int i) { return Request{"POST", lane_path(i) + "/suspend", "", {}}; });
    }

    // Writes memories m0..m<n-1>.
    std::vector<HttpConnection> send_memory_writes(int n) {
        return send_burst(n, [](int i) {
            std::string id = "m" + std::to_string(i);
            return Request{
                "POST", kMemories, R"({"memories":[{"id":")" + id + R"(","text":"memory )" + id + R"("}]})", {}};
        });
    }

    // An MCP session of user u1, initialized.
    std::string mcp_session() {
        auto answer = call("POST", kMcp, kMcpInitialize, mcp_headers());
        EXPECT_EQ(answer.status, 200) << answer.body;
        const std::string* id = answer.header("Mcp-Session-Id");
        return id ? *id : "";
    }
    static Request mcp_tool(const std::string& session, const std::string& tool, const std::string& arguments) {
        return Request{"POST", kMcp,
                       R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
                           R"(","arguments":)" + arguments + "}}",
                       mcp_headers(session)};
    }
    // MCP remember calls of "memory m<i>", i in 0..n-1.
    std::vector<HttpConnection> send_remembers(const std::string& session, int n) {
        return send_burst(n, [&session](int i) {
            return mcp_tool(session, "remember", R"({"text":"memory m)" + std::to_string(i) + R"("})");
        });
    }

    static std::string lane_path(int i) { return "/v1/apps/shop/lanes/l" + std::to_string(i); }

    void resolve_lanes(int n) {
        for (int i = 0; i < n; ++i) {
            auto resolved = call("POST", lane_path(i) + "/resolve", R"({"user":"u1"})");
            ASSERT_EQ(resolved.status, 200) << resolved.body;
        }
    }

    // With the writer held: a read of session s answers, and none of `waiting` has an answer yet
    // (they wait for the writer, which waits for the lock).
    void expect_read_answers_while_writes_wait(std::vector<HttpConnection>& waiting) {
        auto read = call("GET", session_path("s") + "/events");
        EXPECT_EQ(read.status, 200) << read.body;
        EXPECT_NE(read.body.find("before the lock"), std::string::npos) << read.body;
        for (auto& connection : waiting)
            EXPECT_FALSE(connection.wait_for_bytes("HTTP/1.1", std::chrono::milliseconds(1)));
    }

    static void expect_all_answer(std::vector<HttpConnection>& connections, int status) {
        for (auto& connection : connections) {
            auto answer = connection.read_response(std::chrono::milliseconds(kPatience));
            ASSERT_TRUE(answer);
            EXPECT_EQ(answer->status, status) << answer->body;
        }
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
    expect_read_answers_while_writes_wait(patches);

    lock.release();
    expect_all_answer(patches, 200);
    auto state = call("GET", session_path("s"));
    for (int i = 0; i < kBurst; ++i)
        EXPECT_EQ(json_int(state.body, "/session/state/k" + std::to_string(i)), i) << state.body;
}

TEST_F(SqliteQueuedWrites, BurstOfLaneWritesLargerThanThePoolDoesNotHoldUpARead) {
    create_session("s");
    append_text("s", "before the lock");
    resolve_lanes(kBurst);
    WriteLock lock(db_path());
    ASSERT_TRUE(lock.held());
    std::vector<HttpConnection> suspends = send_lane_suspends(kBurst);
    expect_read_answers_while_writes_wait(suspends);

    lock.release();
    expect_all_answer(suspends, 200);
    for (int i = 0; i < kBurst; ++i) {
        auto lane = call("GET", lane_path(i));
        EXPECT_EQ(json_raw(lane.body, "/suspended"), "true") << lane.body;
    }
}

TEST_F(SqliteQueuedWrites, BurstOfMemoryWritesLargerThanThePoolDoesNotHoldUpARead) {
    create_session("s");
    append_text("s", "before the lock");
    WriteLock lock(db_path());
    ASSERT_TRUE(lock.held());
    std::vector<HttpConnection> writes = send_memory_writes(kBurst);
    expect_read_answers_while_writes_wait(writes);

    lock.release();
    expect_all_answer(writes, 200);
    for (int i = 0; i < kBurst; ++i) {
        auto memory = call("GET", std::string(kMemories) + "/m" + std::to_string(i));
        EXPECT_EQ(memory.status, 200) << memory.body;
    }
}

TEST_F(SqliteQueuedWrites, BurstOfMcpRemembersAndForgetsLargerThanThePoolDoesNotHoldUpARead) {
    create_session("s");
    append_text("s", "before the lock");
    std::string session = mcp_session();
    std::vector<std::string> ids;
    for (int i = 0; i < kBurst; ++i) {
        Request remember = mcp_tool(session, "remember", R"({"text":"to forget )" + std::to_string(i) + R"("})");
        auto remembered = call(remember.method, remember.target, remember.body, remember.headers);
        ids.push_back(json_string(remembered.body, "/result/structuredContent/id").value_or(""));
        ASSERT_FALSE(ids.back().empty()) << remembered.body;
    }
    WriteLock lock(db_path());
    ASSERT_TRUE(lock.held());
    std::vector<HttpConnection> remembers = send_remembers(session, kBurst);
    std::vector<HttpConnection> forgets = send_burst(kBurst, [&](int i) {
        return mcp_tool(session, "forget", R"({"id":")" + ids[static_cast<size_t>(i)] + R"("})");
    });
    expect_read_answers_while_writes_wait(remembers);
    expect_read_answers_while_writes_wait(forgets);

    lock.release();
    for (auto& connection : remembers) {
        auto answer = connection.read_response(std::chrono::milliseconds(kPatience));
        ASSERT_TRUE(answer);
        EXPECT_EQ(json_raw(answer->body, "/result/isError"), "false") << answer->body;
        EXPECT_EQ(json_raw(answer->body, "/result/structuredContent/created"), "true") << answer->body;
    }
    for (size_t i = 0; i < forgets.size(); ++i) {
        auto answer = forgets[i].read_response(std::chrono::milliseconds(kPatience));
        ASSERT_TRUE(answer);
        EXPECT_EQ(json_raw(answer->body, "/result/structuredContent"), R"({"id":")" + ids[i] + R"(","deleted":true})")
            << answer->body;
        EXPECT_EQ(call("GET", std::string(kMemories) + "/" + ids[i]).status, 404);
    }
    auto listed = call("GET", std::string(kMemories) + "?limit=100");
    for (int i = 0; i < kBurst; ++i)
        EXPECT_NE(listed.body.find("\"memory m" + std::to_string(i) + "\""), std::string::npos) << listed.body;
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

TEST_F(SqliteQueuedWrites, QueuedLaneMemoryAndPurgeWritesThatFailAnswerTheirOwnError) {
    expect_error(call("PATCH", std::string(kMemories) + "/nope", R"({"text":"x"})"), 404, "not_found");
    expect_error(call("DELETE", std::string(kMemories) + "/nope"), 404, "not_found");
    auto first = call("POST", kMemories, R"({"memories":[{"id":"v","text":"x","embedding":[1,0]}]})");
    ASSERT_EQ(first.status, 200) << first.body;
    // Another length than the app's first stored vector: refused by the write itself.
    auto mismatched = call("POST", kMemories, R"({"memories":[{"id":"w","text":"y","embedding":[1,0,0]}]})");
    expect_error(mismatched, 400, "invalid_argument");
    expect_error(call("POST", lane_path(0) + "/suspend"), 404, "not_found");
    ASSERT_EQ(call("POST", lane_path(0) + "/resolve", R"({"user":"u1"})").status, 200);
    expect_error(call("POST", lane_path(0) + "/resolve", R"({"user":"u2"})"), 409, "conflict");
    expect_error(call("POST", lane_path(0) + "/switch", R"({"session_id":"nope"})"), 404, "not_found");

    // The failures undid only themselves: the next writes go through.
    auto patched = call("PATCH", std::string(kMemories) + "/v", R"({"text":"changed"})");
    EXPECT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(json_string(patched.body, "/text"), "changed") << patched.body;
    EXPECT_EQ(call("GET", std::string(kMemories) + "/w").status, 404);
    auto reset = call("POST", lane_path(0) + "/reset");
    EXPECT_EQ(reset.status, 200) << reset.body;
    auto purged = call("DELETE", "/v1/apps/shop/users/u1");
    ASSERT_EQ(purged.status, 200) << purged.body;
    EXPECT_EQ(json_int(purged.body, "/memories"), 1) << purged.body;
    EXPECT_EQ(json_int(purged.body, "/lanes"), 1) << purged.body;
    EXPECT_EQ(call("GET", std::string(kMemories) + "/v").status, 404);
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

TEST_F(SqliteQueuedWrites, SigtermWithQueuedLaneAndMemoryWritesAnswersEachAndLosesNoAcknowledgedOne) {
    constexpr int kEach = kBurst / 2;
    resolve_lanes(kEach);
    auto lock = std::make_unique<WriteLock>(db_path());
    ASSERT_TRUE(lock->held());
    std::vector<HttpConnection> suspends = send_lane_suspends(kEach);
    std::vector<HttpConnection> memories = send_memory_writes(kEach);
    daemon_->send_signal(SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    lock.reset();

    // Index i of suspends or memories: answered 200 (acknowledged) or 503.
    auto acknowledged = [](std::vector<HttpConnection>& connections, const char* what) {
        std::vector<int> ok;
        for (int i = 0; i < static_cast<int>(connections.size()); ++i) {
            auto answer = connections[static_cast<size_t>(i)].read_response(std::chrono::milliseconds(kPatience));
            EXPECT_TRUE(answer) << what << " " << i << " got no answer";
            if (!answer) continue;
            if (answer->status == 200) {
                ok.push_back(i);
            } else {
                EXPECT_EQ(answer->status, 503) << what << " " << i << ": " << answer->body;
            }
        }
        return ok;
    };
    std::vector<int> suspended = acknowledged(suspends, "lane suspend");
    std::vector<int> written = acknowledged(memories, "memory write");
    EXPECT_EQ(daemon_->wait_exit(std::chrono::milliseconds(kPatience)), 0);
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    for (int i : suspended) {
        auto lane = call("GET", lane_path(i));
        EXPECT_EQ(json_raw(lane.body, "/suspended"), "true") << lane.body;
    }
    for (int i : written) EXPECT_EQ(call("GET", std::string(kMemories) + "/m" + std::to_string(i)).status, 200);
    std::printf("SIGTERM with %d queued lane writes and %d memory writes: %zu and %zu acknowledged\n", kEach, kEach,
                suspended.size(), written.size());
}

// MCP remember calls queued behind the held lock when SIGTERM comes: each is
// answered (stored, or a tool error saying the daemon is stopping), the
// daemon exits 0 (under ASan: no leak, no error at exit), and every
// acknowledged memory is there after a restart.
TEST_F(SqliteQueuedWrites, SigtermWithQueuedMcpRemembersAnswersEachAndExitsCleanly) {
    std::string session = mcp_session();
    auto lock = std::make_unique<WriteLock>(db_path());
    ASSERT_TRUE(lock->held());
    std::vector<HttpConnection> remembers = send_remembers(session, kBurst);
    daemon_->send_signal(SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    lock.reset();

    std::vector<std::string> acknowledged;
    for (int i = 0; i < kBurst; ++i) {
        auto answer = remembers[static_cast<size_t>(i)].read_response(std::chrono::milliseconds(kPatience));
        ASSERT_TRUE(answer) << "remember " << i << " got no answer";
        if (answer->status == 200 && json_raw(answer->body, "/result/isError") == "false") {
            acknowledged.push_back(json_string(answer->body, "/result/structuredContent/id").value_or(""));
        } else if (answer->status == 200) {
            EXPECT_EQ(json_raw(answer->body, "/result/isError"), "true") << answer->body;
        } else {
            EXPECT_EQ(answer->status, 503) << answer->body;
        }
    }
    EXPECT_EQ(daemon_->wait_exit(std::chrono::milliseconds(kPatience)), 0) << daemon_->log();
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    for (const std::string& id : acknowledged) EXPECT_EQ(call("GET", std::string(kMemories) + "/" + id).status, 200);
    std::printf("SIGTERM with %d queued MCP remembers: %zu acknowledged\n", kBurst, acknowledged.size());
}

}  // namespace
}  // namespace mnemo::integration
