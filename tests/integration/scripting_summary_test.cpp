// Summaries through the real daemon: triggers, the bounded queue, the command summarizer,
// /summarize with and without wait, checkpoint reads.
#include "scripting_fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

class ScriptingSummary : public ScriptingTest {
protected:
    // A command summarizer: a shell script in the scripts folder.
    std::string command_config(const std::string& shell, const std::string& more = "") {
        std::string path = scripts_.path() + "/summarizer.sh";
        script("summarizer.sh", "#!/bin/sh\n" + shell + "\n");
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        return config("summary:\n  summarizer: command\n  command: [\"" + path + "\"]\n" + more);
    }
    HttpResponse summarize(const std::string& id, const std::string& body) {
        return call("POST", session_path(id) + "/summarize", body);
    }
    // Polls the summaries list until it has one; its JSON.
    std::optional<std::string> wait_for_summary(const std::string& id) {
        std::optional<std::string> first;
        eventually([&] {
            return (first = json_raw(call("GET", session_path(id) + "/summaries").body, "/summaries/0")).has_value();
        });
        return first;
    }
    std::optional<int64_t> metric(const std::string& name) {
        auto body = call("GET", "/metrics").body;
        auto at = body.find("\n" + name + " ");
        if (at == std::string::npos) return std::nullopt;
        return std::stoll(body.substr(at + name.size() + 2));
    }
};

// Prints "<events> events, previous=<previous>" from the JSON on stdin, surrounded by white space.
constexpr const char* kCountingCommand =
    "exec python3 -c 'import json,sys; d=json.load(sys.stdin); "
    "print(\"  \", len(d[\"events\"]), \"events, previous=\" + str(d[\"previous\"]), \"by\", d[\"session\"][\"id\"], "
    "\"\\n\")'";

TEST_F(ScriptingSummary, AnyTriggerEnqueuesWhenTheEventCountIsReached) {
    shipped("summarize.lua");
    start_daemon(config("summary:\n  trigger: {any: {events: 3}}\n"));
    EXPECT_EQ(json_raw(append("t1", append_body("one")).body, "/summary_enqueued"), "false");
    EXPECT_EQ(json_raw(append("t1", append_body("two")).body, "/summary_enqueued"), "false");
    EXPECT_EQ(json_raw(append("t1", append_body("see /srv/app/main.py")).body, "/summary_enqueued"), "true");
    auto summary = wait_for_summary("t1");
    ASSERT_TRUE(summary);
    EXPECT_EQ(json_string(*summary, "/source"), "lua");
    EXPECT_EQ(json_int(*summary, "/up_to_seq"), 3);
    EXPECT_EQ(json_int(*summary, "/events_covered"), 3);
    EXPECT_THAT(json_string(*summary, "/text").value_or(""), HasSubstr("/srv/app/main.py"));
}

TEST_F(ScriptingSummary, AllTriggerWaitsForEveryCondition) {
    shipped("summarize.lua");
    start_daemon(config("summary:\n  trigger: {all: {events: 2, tokens: 100}}\n"));
    EXPECT_EQ(json_raw(append("t2", append_body("a")).body, "/summary_enqueued"), "false");
    EXPECT_EQ(json_raw(append("t2", append_body("b")).body, "/summary_enqueued"), "false");
    auto with_tokens =
        append("t2", R"({"events":[{"author":"bot","content":"c","usage":{"input_tokens":60,"output_tokens":40}}]})");
    EXPECT_EQ(json_raw(with_tokens.body, "/summary_enqueued"), "true") << with_tokens.body;
}

TEST_F(ScriptingSummary, DisabledSummariesNeverTrigger) {
    shipped("summarize.lua");
    start_daemon(config("summary:\n  enabled: false\n  trigger: {any: {events: 1}}\n"));
    EXPECT_EQ(json_raw(append("t3", append_body("a")).body, "/summary_enqueued"), "false");
    auto posted = summarize("t3", R"({"wait":true})");
    EXPECT_EQ(posted.status, 200) << posted.body;
}

TEST_F(ScriptingSummary, AFullQueueSkipsTheSummaryCountsItAndTheWriteSucceeds) {
    start_daemon(
        command_config("sleep 20", "  trigger: {any: {events: 1}}\n  workers: 1\n  queue_size: 1\n  timeout: 30s\n"));
    int skipped = 0;
    for (int i = 0; i < 4; ++i) {
        auto response = append("q" + std::to_string(i), append_body("x"));
        ASSERT_EQ(response.status, 200) << response.body;
        if (json_raw(response.body, "/summary_enqueued") == "false") ++skipped;
    }
    EXPECT_GE(skipped, 2);  // one job running, at most one waiting
    EXPECT_GE(metric("mnemo_summaries_skipped_total").value_or(0), 2);
    EXPECT_LE(metric("mnemo_summary_queue_depth").value_or(99), 1);
}

TEST_F(ScriptingSummary, CommandSummarizerGetsJsonOnStdinAndItsTrimmedStdoutIsStored) {
    start_daemon(command_config(kCountingCommand, "  trigger: {any: {events: 1000}}\n"));
    append("c1", append_body("first"));
    append("c1", append_body("second"));
    auto first = summarize("c1", R"({"wait":true})");
    ASSERT_EQ(first.status, 200) << first.body << daemon_->log();
    EXPECT_EQ(json_string(first.body, "/text"), "2 events, previous=None by c1");
    EXPECT_EQ(json_string(first.body, "/source"), "command");
    EXPECT_EQ(json_int(first.body, "/up_to_seq"), 2);
    append("c1", append_body("third"));
    auto second = summarize("c1", R"({"wait":true})");
    ASSERT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(json_string(second.body, "/text"), "1 events, previous=2 events, previous=None by c1 by c1");
    EXPECT_EQ(json_int(second.body, "/from_seq"), 3);
    EXPECT_EQ(json_int(second.body, "/events_covered"), 1);
}

TEST_F(ScriptingSummary, HangingCommandIsKilledAtTheTimeout) {
    start_daemon(command_config("sleep 30", "  timeout: 1s\n"));
    append("c2", append_body("x"));
    auto response = summarize("c2", R"({"wait":true})");
    expect_error(response, 500, "internal");
    EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("summary.timeout"));
    EXPECT_EQ(json_raw(call("GET", session_path("c2") + "/summaries").body, "/summaries/0"), std::nullopt);
}

TEST_F(ScriptingSummary, FailingCommandStoresNothing) {
    start_daemon(command_config("cat >/dev/null; echo partial; exit 3"));
    append("c3", append_body("x"));
    auto response = summarize("c3", R"({"wait":true})");
    expect_error(response, 500, "internal");
    EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("exited with status 3"));
    EXPECT_EQ(json_raw(call("GET", session_path("c3") + "/summaries").body, "/summaries/0"), std::nullopt);
}

TEST_F(ScriptingSummary, CommandThatIgnoresItsInputDoesNotTakeTheDaemonDown) {
    start_daemon(command_config("exit 4"));
    std::string events;
    for (int i = 0; i < 100; ++i)
        events += std::string(i ? "," : "") + R"({"author":"user","content":")" + std::string(1000, 'x') + "\"}";
    ASSERT_EQ(append("c7", R"({"create_if_missing":true,"events":[)" + events + "]}").status, 200);
    auto response = summarize("c7", R"({"wait":true})");
    expect_error(response, 500, "internal");
    EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("exited with status 4"));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

TEST_F(ScriptingSummary, CheckpointReadsReturnOnlyEventsAfterUpToSeq) {
    start_daemon(command_config(kCountingCommand));
    for (const char* text : {"a", "b", "c"}) append("c4", append_body(text));
    auto summary = summarize("c4", R"({"wait":true})");
    ASSERT_EQ(summary.status, 200) << summary.body;
    append("c4", append_body("d"));
    append("c4", append_body("e"));
    auto read = call("GET", session_path("c4") + "?from_checkpoint=true");
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(json_int(read.body, "/summary/up_to_seq"), 3);
    EXPECT_EQ(json_int(read.body, "/events/0/seq"), 4);
    EXPECT_EQ(json_int(read.body, "/events/1/seq"), 5);
    EXPECT_EQ(json_raw(read.body, "/events/2"), std::nullopt);
}

TEST_F(ScriptingSummary, NothingNewAnswersTheLatestSummaryAndWaitFalseIs202) {
    start_daemon(command_config(kCountingCommand));
    append("c5", append_body("a"));
    auto queued = summarize("c5", "{}");
    ASSERT_EQ(queued.status, 202) << queued.body;
    EXPECT_EQ(json_raw(queued.body, "/enqueued"), "true");
    auto stored = wait_for_summary("c5");
    ASSERT_TRUE(stored);
    auto again = summarize("c5", R"({"wait":true})");
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(json_raw(again.body, ""), stored);
}

// With force, a summary is written even when no trigger fired; but once the
// latest summary covers every event there is no range left (a summary starts
// after the previous one's up_to_seq): 409 saying so, not the old summary.
TEST_F(ScriptingSummary, ForceSummarizesFewEventsAndIs409WhenEveryEventIsCovered) {
    start_daemon(command_config(kCountingCommand, "  trigger: {any: {events: 1000}}\n"));
    append("c8", append_body("a"));
    auto forced = summarize("c8", R"({"wait":true,"force":true})");
    ASSERT_EQ(forced.status, 200) << forced.body;
    EXPECT_EQ(json_string(forced.body, "/text"), "1 events, previous=None by c8");
    auto again = summarize("c8", R"({"wait":true,"force":true})");
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_THAT(json_string(again.body, "/error/message").value_or(""),
                HasSubstr("the latest summary already covers every event"));
    auto list = call("GET", session_path("c8") + "/summaries");
    EXPECT_FALSE(json_raw(list.body, "/summaries/1")) << "nothing more was written: " << list.body;
}

TEST_F(ScriptingSummary, LuaSummarizerWithoutASummarizeHookIs503) {
    start_daemon(config());
    append("c6", append_body("a"));
    auto response = summarize("c6", R"({"wait":true})");
    expect_error(response, 503, "unavailable");
    EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("no summarizer registered"));
}

}  // namespace
}  // namespace mnemo::integration
