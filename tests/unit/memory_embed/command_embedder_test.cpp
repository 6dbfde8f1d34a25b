// memory.embedder.kind command: small scripts standing in for the program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "fake_embedder_server.h"
#include "memory/embedder.h"

namespace mnemo::memory {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;

class CommandEmbedderTest : public ::testing::Test {
protected:
    void TearDown() override { std::filesystem::remove_all(folder); }

    // A shell script in the test folder as the embedder's argv.
    config::EmbedderConfig script(const std::string& body) {
        std::string path = folder + "/embed.sh";
        std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        config::EmbedderConfig settings;
        settings.kind = config::EmbedderConfig::Kind::Command;
        settings.command = {path};
        settings.model = "tiny";
        settings.timeout_us = 10000000;
        return settings;
    }

    std::string folder = testing::make_temp_folder();
    std::unique_ptr<Embedder> client = make_embedder(config::EmbedderConfig::Kind::Command);
    std::atomic<bool> cancel{false};
};

TEST_F(CommandEmbedderTest, ReadsVectorsFromStdoutAndGetsTheRequestOnStdin) {
    auto settings = script(
        "cat > \"$(dirname \"$0\")/input.json\"\n"
        "echo '{\"data\": [{\"embedding\": [1, 0]}, {\"embedding\": [0, 1]}]}'");
    EmbedOutcome outcome = client->embed({"one", "two"}, settings, cancel);
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_THAT(outcome.vectors, ElementsAre(ElementsAre(1.0f, 0.0f), ElementsAre(0.0f, 1.0f)));
    std::ifstream input(folder + "/input.json");
    std::string sent((std::istreambuf_iterator<char>(input)), std::istreambuf_iterator<char>());
    EXPECT_EQ(sent, R"({"model":"tiny","input":["one","two"]})");
}

TEST_F(CommandEmbedderTest, ExitStatusIsAFailure) {
    auto settings = script("cat >/dev/null; echo oops >&2; exit 3");
    EmbedOutcome outcome = client->embed({"one"}, settings, cancel);
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "memory.embedder.command '" + folder + "/embed.sh' exited with status 3");
}

TEST_F(CommandEmbedderTest, WrongCountIsAFailure) {
    auto settings = script("cat >/dev/null; echo '{\"data\": []}'");
    EmbedOutcome outcome = client->embed({"one"}, settings, cancel);
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "memory.embedder.command '" + folder +
                                  "/embed.sh' answered 0 vectors for 1 texts (answer: {\"data\": []} )");
}

TEST_F(CommandEmbedderTest, SlowCommandIsKilledAtTheTimeout) {
    auto settings = script("exec sleep 30");
    settings.timeout_us = 200000;
    EmbedOutcome outcome = client->embed({"one"}, settings, cancel);
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "memory.embedder.command '" + folder +
                                  "/embed.sh' was killed: it ran longer than memory.embedder.timeout (200 ms)");
}

TEST_F(CommandEmbedderTest, CancelKillsTheProcessGroup) {
    // The shell waits on a child: only a kill of the whole group ends both.
    auto settings = script("sleep 600; echo never");
    settings.timeout_us = 600000000;
    auto call = std::async(std::launch::async, [&] { return client->embed({"one"}, settings, cancel); });
    cancel = true;
    ASSERT_EQ(call.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    EmbedOutcome outcome = call.get();
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, StartsWith("memory.embedder.command '" + folder + "/embed.sh' was killed: "));
}

TEST_F(CommandEmbedderTest, MissingProgramSaysSo) {
    config::EmbedderConfig settings = script("");
    settings.command = {folder + "/absent"};
    EmbedOutcome outcome = client->embed({"one"}, settings, cancel);
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "cannot run memory.embedder.command '" + folder + "/absent': no such file or directory");
}

}  // namespace
}  // namespace mnemo::memory
