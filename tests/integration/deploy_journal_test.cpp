// Logs as journald wants them, through the real binary: with JOURNAL_STREAM
// naming mnemod's stderr, every line starts with a syslog priority "<N>"
// (journald stores it as the entry's level); otherwise lines start with a
// timestamp. log.format: json stays one JSON object per line either way.
#include "deploy_spawn.h"
#include "fixture.h"

#include <gmock/gmock.h>

#include <signal.h>
#include <sys/stat.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace mnemo::integration {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace std::chrono_literals;

std::string config(int port, const std::string& format) {
    return "server:\n"
           "  listen: [\"127.0.0.1:" +
           std::to_string(port) +
           "\"]\n"
           "  admin_socket: ./admin.sock\n"
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR
           "\n"
           "log:\n"
           "  format: " +
           format + "\n";
}

// "<device>:<inode>" of a file, as systemd writes JOURNAL_STREAM.
std::string journal_stream_of(const std::string& path) {
    std::ofstream(path, std::ios::app).flush();
    struct stat status {};
    ::stat(path.c_str(), &status);
    return std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino);
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

class JournalTest : public ::testing::Test {
protected:
    // Runs mnemod through start, a refused reload (an error line) and SIGTERM; returns its log lines.
    std::vector<std::string> run(const std::string& format, const std::string& journal_stream) {
        int port = pick_free_port();
        std::string config_path = dir_.write("mnemod.yaml", config(port, format));
        std::vector<std::pair<std::string, std::string>> env;
        if (!journal_stream.empty()) env.emplace_back("JOURNAL_STREAM", journal_stream);
        daemon_ = std::make_unique<SpawnedDaemon>(
            SpawnOptions{{"--config", config_path}, std::move(env), -1, false, stderr_path()});
        EXPECT_TRUE(wait_healthy(port, kWait));
        dir_.write("mnemod.yaml", config(port + 1, format));  // server.listen changed: refused
        daemon_->send_signal(SIGHUP);
        EXPECT_TRUE(daemon_->wait_for_log("reload refused", kWait));
        daemon_->send_signal(SIGTERM);
        EXPECT_EQ(daemon_->wait_exit(kWait), 0);
        return lines_of(daemon_->log());
    }
    std::string stderr_path() const { return dir_.path() + "/stderr"; }
    void TearDown() override {
        if (HasFailure() && daemon_) std::printf("--- mnemod log ---\n%s\n", daemon_->log().c_str());
    }

    TempDir dir_;
    std::unique_ptr<SpawnedDaemon> daemon_;
};

TEST_F(JournalTest, TextLinesStartWithTheSyslogPriorityUnderJournald) {
    auto lines = run("text", journal_stream_of(stderr_path()));
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) EXPECT_TRUE(std::regex_search(line, std::regex("^<[2-7]>[a-z]+ "))) << line;
    EXPECT_THAT(lines, Contains(StartsWith("<6>info listening on 127.0.0.1:")));
    EXPECT_THAT(lines, Contains(StartsWith("<3>error reload refused, old config kept: ")));
}

TEST_F(JournalTest, JsonLinesCarryThePriorityBeforeTheObjectUnderJournald) {
    auto lines = run("json", journal_stream_of(stderr_path()));
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
        ASSERT_TRUE(std::regex_search(line, std::regex("^<[2-7]>\\{"))) << line;
        std::string object = line.substr(3);
        EXPECT_TRUE(json_valid(object)) << line;
        EXPECT_FALSE(json_string(object, "/ts")) << "journald stamps the time itself: " << line;
    }
    EXPECT_THAT(lines, Contains(StartsWith(R"(<3>{"level":"error","msg":"reload refused)")));
}

TEST_F(JournalTest, AJournalStreamThatIsNotStderrLeavesTimestampedLines) {
    // Inherited from a parent whose stderr went to the journal, while this stderr is a file.
    auto lines = run("text", journal_stream_of(dir_.path() + "/other-file"));
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
        EXPECT_TRUE(std::regex_search(line, std::regex("^\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z [a-z]+ "))) << line;
    }
}

TEST_F(JournalTest, JsonFormatIsOneObjectPerLineWithATimestamp) {
    auto lines = run("json", "");
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
        EXPECT_TRUE(json_valid(line)) << line;
        EXPECT_TRUE(json_string(line, "/ts")) << line;
        EXPECT_TRUE(json_string(line, "/msg")) << line;
    }
}

}  // namespace
}  // namespace mnemo::integration
