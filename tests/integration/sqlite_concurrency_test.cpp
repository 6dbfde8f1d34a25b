// Optimistic concurrency on the sqlite backend through the real binary: many
// clients append to one session with expected_version (read the version,
// append, re-read on 409). Exactly the successful appends are stored, no two
// succeed from the same version, every version handed out is new, and every
// failure is a 409 conflict.
#include "fixture.h"
#include "sqlite_daemon_config.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

namespace mnemo::integration {
namespace {

constexpr int kClients = 8;
constexpr int kAttemptsPerClient = 30;
constexpr const char* kSession = "cas";

struct Success {
    int64_t expected_version = 0;
    int64_t version = 0;
    std::string text;
};

// What one client saw, in the order it saw it.
struct ClientLog {
    std::vector<Success> successes;
    int conflicts = 0;
    std::vector<std::string> problems;  // answers other than 200 and 409 conflict
};

class CasClient {
public:
    CasClient(int port, int index) : connection_(HttpConnection::tcp(port)), index_(index) {}

    ClientLog run() {
        for (int attempt = 0; attempt < kAttemptsPerClient && log_.problems.empty(); ++attempt) {
            auto version = read_version();
            if (!version) break;
            append(*version, "c" + std::to_string(index_) + "-a" + std::to_string(attempt));
        }
        return std::move(log_);
    }

private:
    std::optional<int64_t> read_version() {
        auto response = connection_.request("GET", session_path(kSession) + "?num_recent_events=0");
        auto version =
            response && response->status == 200 ? json_int(response->body, "/session/version") : std::nullopt;
        if (!version) log_.problems.push_back("reading the version: " + (response ? response->body : "no answer"));
        return version;
    }

    void append(int64_t expected, const std::string& text) {
        std::string body = R"({"expected_version":)" + std::to_string(expected) +
                           R"(,"events":[{"author":"user","content":{"text":")" + text + R"("}}]})";
        auto response = connection_.request("POST", session_path(kSession) + "/events", body);
        if (response && response->status == 200) {
            log_.successes.push_back({expected, json_int(response->body, "/version").value_or(-1), text});
        } else if (response && response->status == 409 && is_conflict(response->body)) {
            ++log_.conflicts;
        } else {
            log_.problems.push_back(
                text + ": " +
                (response ? std::to_string(response->status) + " " + response->body : std::string("no answer")));
        }
    }

    static bool is_conflict(const std::string& body) {
        return json_string(body, "/error/code") == "conflict" && json_int(body, "/error/details/current_version");
    }

    HttpConnection connection_;
    int index_;
    ClientLog log_;
};

std::vector<ClientLog> run_clients(int port) {
    std::vector<ClientLog> logs(kClients);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i)
        threads.emplace_back([&logs, port, i] { logs[static_cast<size_t>(i)] = CasClient(port, i).run(); });
    for (auto& thread : threads) thread.join();
    return logs;
}

// The content.text of every visible event of the session (at most 1,000: one page).
std::multiset<std::string> stored_texts(const HttpResponse& page) {
    simdjson::dom::parser parser;
    simdjson::dom::array events;
    std::multiset<std::string> texts;
    if (parser.parse(page.body)["events"].get_array().get(events) != simdjson::SUCCESS) return texts;
    for (simdjson::dom::element event : events) {
        std::string_view text;
        if (event["content"]["text"].get_string().get(text) == simdjson::SUCCESS) texts.emplace(text);
    }
    return texts;
}

class SqliteConcurrency : public DaemonTest {
protected:
    void SetUp() override { start_daemon(sqlite_daemon_config()); }
};

TEST_F(SqliteConcurrency, ExpectedVersionAppendsFromManyClientsNeitherLoseNorDuplicateWrites) {
    create_session(kSession);
    std::vector<ClientLog> logs = run_clients(daemon_->port());

    std::vector<Success> all;
    int conflicts = 0;
    for (const ClientLog& log : logs) {
        EXPECT_TRUE(log.problems.empty()) << log.problems.front();
        for (size_t i = 1; i < log.successes.size(); ++i)
            EXPECT_LT(log.successes[i - 1].version, log.successes[i].version) << "one client's versions went back";
        all.insert(all.end(), log.successes.begin(), log.successes.end());
        conflicts += log.conflicts;
    }
    std::printf("expected_version: %zu appends succeeded, %d answered 409\n", all.size(), conflicts);
    ASSERT_FALSE(all.empty());

    std::set<int64_t> versions, expected_versions;
    std::multiset<std::string> texts;
    for (const Success& success : all) {
        EXPECT_GT(success.version, success.expected_version) << success.text;
        EXPECT_TRUE(versions.insert(success.version).second) << "version " << success.version << " handed out twice";
        EXPECT_TRUE(expected_versions.insert(success.expected_version).second)
            << "two appends succeeded from version " << success.expected_version;
        texts.insert(success.text);
    }
    auto [version, count] = version_and_count(kSession);
    EXPECT_EQ(count, static_cast<int64_t>(all.size()));
    EXPECT_EQ(version, *versions.rbegin());
    auto page = call("GET", session_path(kSession) + "/events?limit=1000");
    EXPECT_EQ(stored_texts(page), texts) << "the stored events are not exactly the acknowledged ones";
}

}  // namespace
}  // namespace mnemo::integration
