// The crash soak: the real mnemod SIGKILLed at random moments while writer
// threads append batches with client ids and retry each batch until it is
// acknowledged; after every restart, and at the end, the audit holds the
// daemon to what the writers were told (audit.h). Backends: sqlite with
// synchronous full and normal (both promise that an acknowledged write
// survives a process crash), mysql and postgres, whose database server is
// also restarted in the middle of the run while the writers keep appending.
//
// Parameters (environment): MNEMO_SOAK_KILLS (default 5), MNEMO_SOAK_WRITERS
// (4), MNEMO_SOAK_SECONDS (appending time over the whole run, default 0.6 s
// per kill; each kill lands uniformly within twice the mean interval),
// MNEMO_SOAK_SEED (kill intervals and batch shapes; default from the clock,
// printed). tests/soak/run.sh runs
// the long form.
#include "audit.h"
#include "fixture.h"
#include "ledger.h"
#include "writers.h"
#include "shared_daemons.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>

namespace mnemo::soak {
namespace {

using integration::DaemonProcess;

constexpr size_t kProblemsShown = 20;
constexpr auto kProgressWait = std::chrono::seconds(60);
constexpr auto kDatabaseDown = std::chrono::milliseconds(800);

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    if (!text || !*text) return fallback;
    char* end = nullptr;
    double value = std::strtod(text, &end);
    if (*end != '\0' || value < 0) {
        ADD_FAILURE() << name << "=" << text << ": expected a non-negative number";
        return fallback;
    }
    return value;
}

struct Parameters {
    int kills = static_cast<int>(env_number("MNEMO_SOAK_KILLS", 5));
    int writers = static_cast<int>(env_number("MNEMO_SOAK_WRITERS", 4));
    double seconds = env_number("MNEMO_SOAK_SECONDS", 0.6 * kills);
    uint32_t seed = static_cast<uint32_t>(
        env_number("MNEMO_SOAK_SEED",
                   static_cast<double>(std::chrono::system_clock::now().time_since_epoch().count() % 1000000007)));
};

std::string show(const std::vector<std::string>& problems) {
    std::string text = std::to_string(problems.size()) + " problem(s):";
    for (size_t i = 0; i < problems.size() && i < kProblemsShown; ++i) text += "\n  " + problems[i];
    return text;
}

// The options every soak daemon shares: no eviction (it would look like loss), no summaries.
std::string common_sections() {
    return "limits:\n  event_limit: 0\nsummary:\n  enabled: false\n";
}

std::string sqlite_soak_config(const std::string& synchronous) {
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n  idle_timeout: 2s\n"
           "storage:\n  plugin: sqlite\n  plugin_dir: @PLUGIN_DIR@\n  options: {path: @DIR@/mnemo.db, synchronous: " +
           synchronous + "}\n" + common_sections();
}

// Waits (bounded) until every writer has more acknowledged batches than in `before`.
bool every_writer_progressed(const Writers& writers, const std::vector<int64_t>& before) {
    auto deadline = std::chrono::steady_clock::now() + kProgressWait;
    for (;;) {
        auto now = writers.progress();
        bool all = true;
        for (size_t w = 0; w < now.size(); ++w) all = all && now[w] > before[w];
        if (all) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

class Soak : public ::testing::Test {
protected:
    void TearDown() override {
        if (HasFailure() && daemon_)
            std::fprintf(stderr, "---- mnemod log (last start) ----\n%s---- end of log ----\n", daemon_->log().c_str());
    }

    // middle_of_run: called once, while the writers append, in the round halfway through (the shared
    // plugins' soak restarts their database server there).
    void soak(const std::string& name, const std::string& config, const std::function<void()>& middle_of_run = {}) {
        Parameters p;
        ASSERT_GT(p.kills, 0);
        ASSERT_GT(p.writers, 0);
        std::printf(
            "soak %s: kills %d, writers %d, seconds %.1f, seed %u (MNEMO_SOAK_SEED repeats the kill "
            "intervals and batch shapes)\n",
            name.c_str(), p.kills, p.writers, p.seconds, p.seed);
        std::fflush(stdout);
        std::mt19937 random(p.seed);
        std::uniform_int_distribution<int> kill_after_ms(0, static_cast<int>(2000.0 * p.seconds / p.kills));

        daemon_ = std::make_unique<DaemonProcess>(config);
        std::string error;
        ASSERT_TRUE(daemon_->start(&error)) << error;
        Gate gate;
        Ledger ledger;
        Auditor auditor;
        WriterOptions options;
        options.seed = p.seed;
        Writers writers(p.writers, options, gate, ledger);
        auto audit = [&](const std::string& when) {
            auto problems = auditor.run(daemon_->port(), writers.sessions(), ledger);
            auto unexpected = ledger.unexpected_answers();
            problems.insert(problems.end(), unexpected.begin(), unexpected.end());
            EXPECT_TRUE(problems.empty()) << when << ": " << show(problems);
            return problems.empty();
        };

        for (int kill = 1; kill <= p.kills; ++kill) {
            gate.open(daemon_->port());
            auto run_for = std::chrono::milliseconds(kill_after_ms(random));
            if (middle_of_run && kill == (p.kills + 1) / 2) {
                std::this_thread::sleep_for(run_for / 2);
                middle_of_run();
                auto before = writers.progress();
                ASSERT_TRUE(every_writer_progressed(writers, before)) << "no appends acknowledged after the restart";
                run_for /= 2;
            }
            std::this_thread::sleep_for(run_for);
            daemon_->send_signal(SIGKILL);
            gate.close();
            daemon_->wait_exit(std::chrono::seconds(10));
            ASSERT_FALSE(daemon_->running()) << "mnemod outlived SIGKILL";
            ASSERT_TRUE(daemon_->start(&error)) << "restart after kill " << kill << ": " << error;
            ASSERT_TRUE(audit("after kill " + std::to_string(kill)));
        }

        // The end: every writer gets on after the last restart, then a clean stop and a last audit.
        auto before = writers.progress();
        gate.open(daemon_->port());
        bool progressed = every_writer_progressed(writers, before);
        gate.close();
        EXPECT_TRUE(progressed) << "some writer had no append acknowledged after the last restart";
        daemon_->stop();
        EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(0)), 0) << "SIGTERM after the soak";
        ASSERT_TRUE(daemon_->start(&error)) << error;
        audit("after the clean restart at the end");
        writers.join();

        Tally tally = ledger.tally();
        std::printf(
            "soak %s: kills %d, acknowledged %lld batches (%lld events), lost %zu, duplicated %zu, partial "
            "batches %zu; %lld sends unanswered, %lld answered 503/429, %lld resends (in doubt at a "
            "kill and found stored whole by the next audit: %lld), %lld audits\n",
            name.c_str(), p.kills, static_cast<long long>(tally.acknowledged_batches),
            static_cast<long long>(tally.acknowledged_events), auditor.lost(), auditor.duplicated(), auditor.partial(),
            static_cast<long long>(tally.unanswered), static_cast<long long>(tally.refused),
            static_cast<long long>(tally.resent), static_cast<long long>(auditor.in_doubt_found_stored()),
            static_cast<long long>(auditor.audits()));
        std::fflush(stdout);
        EXPECT_GT(tally.acknowledged_batches, 0);
        EXPECT_EQ(auditor.lost(), 0u);
        EXPECT_EQ(auditor.duplicated(), 0u);
        EXPECT_EQ(auditor.partial(), 0u);
    }

    std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(Soak, SqliteSynchronousFull) {
    soak("sqlite synchronous=full", sqlite_soak_config("full"));
}

// normal may lose the last commits to an OS crash or power loss, never to a process crash.
TEST_F(Soak, SqliteSynchronousNormal) {
    soak("sqlite synchronous=normal", sqlite_soak_config("normal"));
}

#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)
// Each shared plugin, its database server restarted halfway through.
class SharedSoak : public Soak, public ::testing::WithParamInterface<std::string> {};

TEST_P(SharedSoak, WithADatabaseRestart) {
    integration::DatabaseServer server(GetParam());
    std::string error;
    ASSERT_TRUE(server.start(&error)) << error;
    std::string database = server.create_database("soak");
    soak(GetParam(), integration::shared_config(GetParam(), database, ""), [&server] {
        server.stop();
        std::this_thread::sleep_for(kDatabaseDown);
        std::string restart_error;
        ASSERT_TRUE(server.start(&restart_error)) << restart_error;
    });
}

INSTANTIATE_TEST_SUITE_P(Backends, SharedSoak, ::testing::ValuesIn(integration::shared_backends()),
                         [](const auto& info) { return info.param; });
#endif

}  // namespace
}  // namespace mnemo::soak
