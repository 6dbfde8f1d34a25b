// What the sqlite backend promises when the process dies or shares its file,
// checked through the real binary: every acknowledged append survives a
// SIGKILL exactly once with the seqs it was answered with, a batch is never
// half stored, and two daemons on one file both write correctly (the losing
// side of a lock answers 503, never corrupts) and leave a file that passes
// PRAGMA integrity_check.
#include "fixture.h"
#include "sqlite_daemon_config.h"
#include "stored_events.h"

#include <sqlite3.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace mnemo::integration {
namespace {

constexpr int kBatchEvents = 3;
constexpr int kOwnSessionsPerClient = 2;
constexpr int kSharedSessions = 4;
constexpr int kMaxProblemsShown = 20;
constexpr auto kLoadDeadline = std::chrono::seconds(40);

// A batch's events carry client ids <tag>-e0, <tag>-e1, ... so a read-back can regroup them.
std::string batch_body(const std::string& tag) {
    static const std::string kText(400, 'x');
    std::string body = R"({"create_if_missing":true,"events":[)";
    for (int i = 0; i < kBatchEvents; ++i) {
        if (i > 0) body += ',';
        body += R"({"id":")" + tag + "-e" + std::to_string(i) + R"(","author":"user","content":{"text":")" + kText +
                R"("}})";
    }
    return body + "]}";
}

std::string tag_of(const std::string& event_id) {
    return event_id.substr(0, event_id.rfind("-e"));
}

// What the client knows about one batch it sent.
enum class Outcome {
    Acknowledged,  // 2xx: must be stored with exactly these seqs
    Refused,       // 503 or 429: a failed write changes nothing, so it must be absent
    InDoubt,       // no answer (the daemon died): all of it or none of it
};

struct Batch {
    std::string session;
    Outcome outcome = Outcome::InDoubt;
    std::vector<int64_t> seqs;
};

// Every batch any client sent, by tag; shared by the client threads.
class Ledger {
public:
    void record(const std::string& tag, Batch batch) {
        std::lock_guard lock(mutex_);
        if (batch.outcome == Outcome::Acknowledged) ++acknowledged_;
        if (batch.outcome == Outcome::Refused) ++refused_;
        batches_[tag] = std::move(batch);
    }
    void unexpected(const std::string& what) {
        std::lock_guard lock(mutex_);
        unexpected_.push_back(what);
    }
    int acknowledged() const { return acknowledged_.load(); }
    int refused() const { return refused_.load(); }
    std::vector<std::string> unexpected_answers() const {
        std::lock_guard lock(mutex_);
        return unexpected_;
    }
    std::map<std::string, Batch>& batches() { return batches_; }  // only once the clients stopped

private:
    mutable std::mutex mutex_;
    std::map<std::string, Batch> batches_;
    std::vector<std::string> unexpected_;
    std::atomic<int> acknowledged_{0};
    std::atomic<int> refused_{0};
};

// One keep-alive connection appending batches round-robin over its sessions until the daemon goes
// away, `stop` is set, or max_batches were sent.
struct LoadClient {
    int port = 0;
    std::string tag_prefix;
    std::vector<std::string> sessions;
    int max_batches = 0;

    void run(Ledger& ledger, const std::atomic<bool>& stop) const {
        auto connection = HttpConnection::tcp(port);
        for (int n = 0; n < max_batches && !stop.load() && connection.connected(); ++n) {
            std::string tag = tag_prefix + "-b" + std::to_string(n);
            Batch batch{sessions[static_cast<size_t>(n) % sessions.size()], Outcome::InDoubt, {}};
            std::string request = format_request("POST", events_path(batch.session), batch_body(tag));
            auto response = connection.send_raw(request) ? connection.read_response() : std::nullopt;
            if (!response) {
                ledger.record(tag, std::move(batch));
                return;
            }
            classify(*response, tag, batch, ledger);
        }
    }

    static void classify(const HttpResponse& response, const std::string& tag, Batch& batch, Ledger& ledger) {
        if (response.status == 200) {
            batch.outcome = Outcome::Acknowledged;
            batch.seqs = appended_seqs(response.body);
        } else if (response.status == 503 || response.status == 429) {
            batch.outcome = Outcome::Refused;
        } else {
            ledger.unexpected(tag + ": HTTP " + std::to_string(response.status) + " " + response.body);
            return;
        }
        ledger.record(tag, std::move(batch));
    }
};

std::vector<std::string> shared_sessions() {
    std::vector<std::string> names;
    for (int i = 0; i < kSharedSessions; ++i) names.push_back("shared" + std::to_string(i));
    return names;
}

// Client c sends every third batch to a shared session, the others to its own sessions
// <owner>-c<c>-<j>; tags start with tag_prefix, so they are unique across rounds and daemons.
std::vector<LoadClient> make_clients(int port, const std::string& tag_prefix, const std::string& owner, int count,
                                     int max_batches) {
    std::vector<LoadClient> clients;
    for (int c = 0; c < count; ++c) {
        LoadClient client{port, tag_prefix + "-c" + std::to_string(c), {}, max_batches};
        for (int j = 0; j < kOwnSessionsPerClient; ++j)
            client.sessions.push_back(owner + "-c" + std::to_string(c) + "-" + std::to_string(j));
        client.sessions.push_back(shared_sessions()[static_cast<size_t>(c) % kSharedSessions]);
        clients.push_back(std::move(client));
    }
    return clients;
}

std::vector<std::thread> start_clients(const std::vector<LoadClient>& clients, Ledger& ledger,
                                       const std::atomic<bool>& stop) {
    std::vector<std::thread> threads;
    for (const LoadClient& client : clients)
        threads.emplace_back([&client, &ledger, &stop] { client.run(ledger, stop); });
    return threads;
}

void join_all(std::vector<std::thread>& threads) {
    for (auto& thread : threads) thread.join();
}

// Compares the stored events of every session against the ledger. In-doubt batches are settled
// to what was found, so later rounds hold them to it. Returns the problems found.
class Verifier {
public:
    Verifier(int port, Ledger& ledger) : port_(port), ledger_(ledger) {}

    std::vector<std::string> run() {
        std::set<std::string> sessions;
        for (const auto& [tag, batch] : ledger_.batches()) sessions.insert(batch.session);
        for (const std::string& session : sessions) check_session(session);
        for (auto& [tag, batch] : ledger_.batches()) check_batch(tag, batch);
        return problems_;
    }

    // Unanswered batches this run found stored whole / absent.
    std::pair<int, int> in_doubt_settled() const { return {in_doubt_stored_, in_doubt_absent_}; }

    // Stored batches the ledger never sent: what run() found under no known tag.
    std::vector<std::string> unknown_batches() const {
        std::vector<std::string> unknown;
        for (const auto& [tag, seqs] : found_) unknown.push_back(tag + " stored but never sent");
        return unknown;
    }

private:
    void check_session(const std::string& session) {
        std::string error;
        std::vector<StoredEvent> events = read_events(port_, session, &error);
        if (!error.empty()) return problems_.push_back(error);
        std::set<std::string> ids;
        int64_t previous_seq = 0;
        for (const StoredEvent& event : events) {
            if (!ids.insert(event.id).second) problems_.push_back(session + ": event " + event.id + " stored twice");
            if (event.seq <= previous_seq)
                problems_.push_back(session + ": seq " + std::to_string(event.seq) + " out of order");
            previous_seq = event.seq;
            found_[tag_of(event.id)].push_back(event.seq);
            found_session_[tag_of(event.id)] = session;
        }
        auto count = event_count(port_, session);
        if (count != static_cast<int64_t>(events.size()))
            problems_.push_back(session + ": event_count " + std::to_string(count.value_or(-1)) + " but " +
                                std::to_string(events.size()) + " events readable");
    }

    void check_batch(const std::string& tag, Batch& batch) {
        auto found = found_.find(tag);
        std::vector<int64_t> seqs = found == found_.end() ? std::vector<int64_t>{} : found->second;
        if (found != found_.end() && found_session_[tag] != batch.session)
            problems_.push_back(tag + ": stored in " + found_session_[tag] + ", sent to " + batch.session);
        if (!seqs.empty() && !consecutive(seqs)) problems_.push_back(tag + ": batch stored partially or split");
        if (batch.outcome == Outcome::Acknowledged && seqs != batch.seqs)
            problems_.push_back(tag + ": acknowledged with seqs " + join(batch.seqs) + ", stored as [" + join(seqs) +
                                "]");
        if (batch.outcome == Outcome::Refused && !seqs.empty())
            problems_.push_back(tag + ": answered 503 but stored as [" + join(seqs) + "]");
        if (batch.outcome == Outcome::InDoubt && consecutive(seqs)) {
            batch = Batch{batch.session, Outcome::Acknowledged, seqs};
            ++in_doubt_stored_;
        }
        if (batch.outcome == Outcome::InDoubt && seqs.empty()) {
            batch.outcome = Outcome::Refused;
            ++in_doubt_absent_;
        }
        if (found != found_.end()) found_.erase(found);
    }

    static bool consecutive(const std::vector<int64_t>& seqs) {
        if (seqs.size() != static_cast<size_t>(kBatchEvents)) return false;
        for (size_t i = 1; i < seqs.size(); ++i)
            if (seqs[i] != seqs[i - 1] + 1) return false;
        return true;
    }
    static std::string join(const std::vector<int64_t>& seqs) {
        std::string text;
        for (int64_t seq : seqs) text += (text.empty() ? "" : ",") + std::to_string(seq);
        return text;
    }

    int port_;
    Ledger& ledger_;
    std::map<std::string, std::vector<int64_t>> found_;
    std::map<std::string, std::string> found_session_;
    std::vector<std::string> problems_;
    int in_doubt_stored_ = 0;
    int in_doubt_absent_ = 0;
};

std::string first_problems(const std::vector<std::string>& problems) {
    std::string text = std::to_string(problems.size()) + " problem(s):";
    for (size_t i = 0; i < problems.size() && i < kMaxProblemsShown; ++i) text += "\n  " + problems[i];
    return text;
}

std::string integrity_check(const std::string& db_path) {
    std::string verdict = "no answer from PRAGMA integrity_check";
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        verdict = "cannot open " + db_path;
    }
    auto collect = [](void* out, int, char** values, char**) {
        *static_cast<std::string*>(out) = values[0] ? values[0] : "NULL";
        return 0;
    };
    if (db) sqlite3_exec(db, "PRAGMA integrity_check", collect, &verdict, nullptr);
    sqlite3_close(db);
    return verdict;
}

class SqliteDurability : public ::testing::Test {
protected:
    void TearDown() override {
        for (auto& daemon : daemons_)
            if (HasFailure())
                std::fprintf(stderr, "---- mnemod log ----\n%s---- end of log ----\n", daemon->log().c_str());
    }

    DaemonProcess& start_daemon() {
        daemons_.push_back(std::make_unique<DaemonProcess>(sqlite_daemon_config("", db_path_)));
        std::string error;
        EXPECT_TRUE(daemons_.back()->start(&error)) << error;
        return *daemons_.back();
    }

    void expect_ledger_matches(int port, Ledger& ledger) {
        Verifier verifier(port, ledger);
        std::vector<std::string> problems = verifier.run();
        for (const std::string& unknown : verifier.unknown_batches()) problems.push_back(unknown);
        EXPECT_TRUE(problems.empty()) << first_problems(problems);
        auto [stored, absent] = verifier.in_doubt_settled();
        std::printf("verified %zu batches: %d unanswered ones stored whole, %d absent\n", ledger.batches().size(),
                    stored, absent);
    }

    TempDir data_;
    std::string db_path_ = data_.path() + "/mnemo.db";
    std::vector<std::unique_ptr<DaemonProcess>> daemons_;
};

bool wait_for_acknowledged(const Ledger& ledger, int count) {
    auto deadline = std::chrono::steady_clock::now() + kLoadDeadline;
    while (ledger.acknowledged() < count) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

constexpr int kRounds = 5;
constexpr int kKillClients = 20;
constexpr int kAcknowledgedBeforeKill = 2000;  // per round; SIGKILL lands while all clients are mid-request
constexpr int kBatchBound = 100000;            // per client; the kill ends the round long before

TEST_F(SqliteDurability, AcknowledgedAppendsSurviveSigkillExactlyOnceAndNoBatchIsHalfStored) {
    Ledger ledger;
    for (int round = 1; round <= kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        DaemonProcess& daemon = start_daemon();
        ASSERT_FALSE(HasFailure());
        int before = ledger.acknowledged();
        std::atomic<bool> stop{false};
        auto clients = make_clients(daemon.port(), "r" + std::to_string(round), "own", kKillClients, kBatchBound);
        auto threads = start_clients(clients, ledger, stop);
        bool loaded = wait_for_acknowledged(ledger, before + kAcknowledgedBeforeKill);
        daemon.send_signal(SIGKILL);
        stop = true;
        join_all(threads);
        daemon.wait_exit(std::chrono::seconds(10));
        ASSERT_TRUE(loaded) << "only " << ledger.acknowledged() - before << " appends acknowledged before the deadline";
        ASSERT_TRUE(ledger.unexpected_answers().empty()) << first_problems(ledger.unexpected_answers());
        EXPECT_EQ(ledger.refused(), 0) << "one daemon alone should never answer 503";
        DaemonProcess& restarted = start_daemon();
        ASSERT_FALSE(HasFailure());
        expect_ledger_matches(restarted.port(), ledger);
        restarted.stop();
    }
    EXPECT_EQ(integrity_check(db_path_), "ok");
}

constexpr int kClientsPerDaemon = 10;
constexpr int kBatchesPerClient = 40;

// Decided behaviour: WAL lets a second process open the file; the two writer
// threads take turns on SQLite's write lock (busy_timeout plus the plugin's
// retries), so both daemons serve writes. A 503 is allowed only as "nothing
// stored"; every 200 must be stored once with its seqs, shared sessions included.
TEST_F(SqliteDurability, TwoDaemonsOnOneFileBothWriteCorrectlyAndLeaveAnIntactFile) {
    DaemonProcess& first = start_daemon();
    DaemonProcess& second = start_daemon();
    ASSERT_FALSE(HasFailure());
    Ledger ledger;
    std::atomic<bool> stop{false};
    auto clients = make_clients(first.port(), "a", "a", kClientsPerDaemon, kBatchesPerClient);
    auto more = make_clients(second.port(), "b", "b", kClientsPerDaemon, kBatchesPerClient);
    clients.insert(clients.end(), more.begin(), more.end());
    auto threads = start_clients(clients, ledger, stop);
    join_all(threads);
    ASSERT_TRUE(ledger.unexpected_answers().empty()) << first_problems(ledger.unexpected_answers());
    EXPECT_EQ(ledger.acknowledged() + ledger.refused(), 2 * kClientsPerDaemon * kBatchesPerClient);
    std::printf("two daemons: %d appends acknowledged, %d answered 503\n", ledger.acknowledged(), ledger.refused());
    expect_ledger_matches(first.port(), ledger);
    expect_ledger_matches(second.port(), ledger);
    first.stop();
    second.stop();
    EXPECT_EQ(first.wait_exit(std::chrono::seconds(0)), 0);
    EXPECT_EQ(second.wait_exit(std::chrono::seconds(0)), 0);
    EXPECT_EQ(integrity_check(db_path_), "ok");
}

}  // namespace
}  // namespace mnemo::integration
