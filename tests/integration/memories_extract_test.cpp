// memory.capture: extract through the real daemon: a Lua `extract` hook and
// a command extractor (tests/fixtures/extract_memories.py) turn a session's
// events into memories when memory.extract_trigger is met; dedupe, skipped
// items, a failed job that leaves the cursor, the cursor across a restart
// on sqlite, and appends that never wait for the extractor.
#include "scripting_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <map>
#include <vector>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

// One memory per event: its text, with the event's seq in metadata.
constexpr const char* kEachEventHook = R"lua(
local function text_of(event)
  if type(event.content) == "string" then return event.content end
  if type(event.content) == "table" then return event.content.text end
end
mnemo.on("extract", function(session, events, next)
  local items = {}
  for _, event in ipairs(events) do
    local text = text_of(event)
    if text then items[#items + 1] = {text = text, namespace = "facts", metadata = {seq = event.seq}} end
  end
  return items
end)
)lua";

class MemoryExtract : public ScriptingTest {
protected:
    static std::string capture(int events, const std::string& more = "") {
        return "memory:\n  capture: extract\n  extract_trigger: {any: {events: " + std::to_string(events) + "}}\n" +
               more;
    }
    std::optional<int64_t> metric(const std::string& name) {
        auto body = call("GET", "/metrics").body;
        auto at = body.find("\n" + name + " ");
        if (at == std::string::npos) return std::nullopt;
        return std::stoll(body.substr(at + name.size() + 2));
    }
    // Polls until the metric reaches `at_least` (bounded); its last value.
    int64_t wait_metric(const std::string& name, int64_t at_least) {
        int64_t value = -1;
        eventually([&] { return (value = metric(name).value_or(-1)) >= at_least; });
        return value;
    }
    // The user's memories: text -> the raw memory.
    std::multimap<std::string, std::string> memories() {
        auto listed = call("GET", std::string(kMemories) + "?limit=1000");
        EXPECT_EQ(listed.status, 200) << listed.body;
        std::multimap<std::string, std::string> out;
        for (int i = 0;; ++i) {
            auto memory = json_raw(listed.body, "/memories/" + std::to_string(i));
            if (!memory) break;
            out.emplace(json_string(*memory, "/text").value_or(""), *memory);
        }
        return out;
    }
};

TEST_F(MemoryExtract, TheTriggerRunsTheLuaHookAndRecallFindsTheMemories) {
    script("hooks/extract.lua", kEachEventHook);
    start_daemon(config(capture(2)));
    ASSERT_EQ(append("e1", append_body("Likes green tea in the morning")).status, 200);
    EXPECT_EQ(metric("mnemo_memory_extract_jobs_total"), 0) << "one event is below the trigger";
    ASSERT_EQ(append("e1", append_body("Lives in Lisbon")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 1), 1);
    EXPECT_EQ(metric("mnemo_memory_extracted_total"), 2);
    EXPECT_EQ(metric("mnemo_memory_extract_failures_total"), 0);

    auto recalled = call("POST", "/v1/apps/shop/memories/search", R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(recalled.status, 200) << recalled.body;
    EXPECT_EQ(json_string(recalled.body, "/memories/0/text"), "Likes green tea in the morning") << recalled.body;
    EXPECT_EQ(json_string(recalled.body, "/memories/0/session_id"), "e1");
    EXPECT_EQ(json_raw(recalled.body, "/memories/0/source"), "null");
    EXPECT_EQ(json_string(recalled.body, "/memories/0/namespace"), "facts");
    EXPECT_EQ(json_int(recalled.body, "/memories/0/metadata/seq"), 1);
}

TEST_F(MemoryExtract, TheSameTextExtractedTwiceIsStoredOnce) {
    script("hooks/extract.lua", R"lua(
mnemo.on("extract", function(session, events, next)
  local items = {}
  for _ in ipairs(events) do items[#items + 1] = {text = "Prefers  WINDOW seats"} end
  return items
end)
)lua");
    start_daemon(config(capture(2)));
    for (const char* text : {"a", "b", "c", "d"}) ASSERT_EQ(append("e2", append_body(text)).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extracted_total", 4), 4) << "one item per event, in one job or two";
    auto stored = memories();
    ASSERT_EQ(stored.size(), 1u) << "four items of one folded text";
    EXPECT_EQ(stored.begin()->first, "Prefers  WINDOW seats");
}

TEST_F(MemoryExtract, ItemsBreakingTheRulesAreSkippedAndLoggedTheRestStored) {
    script("hooks/extract.lua", R"lua(
mnemo.on("extract", function(session, events, next)
  return {
    {text = ""},
    {text = "Drives an old Volvo"},
    {text = string.rep("x", 9000)},
    {text = "bad namespace", namespace = 5},
    {text = "bad metadata", metadata = "not an object"},
    {namespace = "facts"},
    {text = "Allergic to peanuts", namespace = "health"},
  }
end)
)lua");
    start_daemon(config(capture(1)));
    ASSERT_EQ(append("e3", append_body("anything")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 1), 1);
    auto stored = memories();
    ASSERT_EQ(stored.size(), 2u);
    EXPECT_EQ(stored.count("Drives an old Volvo"), 1u);
    ASSERT_EQ(stored.count("Allergic to peanuts"), 1u);
    EXPECT_EQ(json_string(stored.find("Allergic to peanuts")->second, "/namespace"), "health");
    EXPECT_EQ(metric("mnemo_memory_extract_skipped_total"), 5);
    EXPECT_EQ(metric("mnemo_memory_extracted_total"), 2);
    EXPECT_TRUE(daemon_->wait_for_log("shop/u1/e3: item 0 skipped", kPatience)) << daemon_->log();
    EXPECT_THAT(daemon_->log(), HasSubstr("item 2 skipped: [2].text: 9000 bytes is over memory.max_text_bytes"));
    EXPECT_THAT(daemon_->log(), HasSubstr("item 5 skipped: [5].text: required"));
}

// The hook fails its first call: that job's events stay after the cursor
// and the next trigger hands them over with the new ones.
TEST_F(MemoryExtract, AFailedJobLeavesTheCursorAndTheNextTriggerRetriesItsEvents) {
    script("hooks/extract.lua", std::string("calls = 0\n") + R"lua(
mnemo.on("extract", function(session, events, next)
  calls = calls + 1
  if calls == 1 then error("model unavailable") end
  return next()
end)
)lua" + kEachEventHook);
    start_daemon(config(capture(2) + "summary:\n  workers: 1\n"));  // one Lua state counts the calls
    ASSERT_EQ(append("e4", append_body("first fact")).status, 200);
    ASSERT_EQ(append("e4", append_body("second fact")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_failures_total", 1), 1);
    EXPECT_TRUE(memories().empty());
    EXPECT_THAT(daemon_->log(), HasSubstr("model unavailable"));
    ASSERT_EQ(append("e4", append_body("third fact")).status, 200);
    ASSERT_EQ(append("e4", append_body("fourth fact")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 2), 2);
    auto stored = memories();
    EXPECT_EQ(stored.size(), 4u);
    EXPECT_EQ(stored.count("first fact"), 1u) << "the failed job's events were handed over again";
}

TEST_F(MemoryExtract, AScriptPastItsBoundFailsTheJobAndTheDaemonKeepsServing) {
    script("hooks/extract.lua", R"lua(
mnemo.on("extract", function(session, events, next)
  while true do end
end)
)lua");
    start_daemon(config(capture(1), "  instruction_limit: 100000\n"));
    ASSERT_EQ(append("e5", append_body("one")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_failures_total", 1), 1);
    EXPECT_THAT(daemon_->log(), HasSubstr("extract hook failed"));
    EXPECT_EQ(append("e5", append_body("two")).status, 200);
    EXPECT_EQ(call("GET", session_path("e5")).status, 200);
}

// The cursor is durable: events extracted before a restart are not
// extracted again, and those appended but not yet extracted are not lost.
// The hook stamps each item with the time, so a second extraction of an
// event would store a second memory (dedupe would not hide it).
TEST_F(MemoryExtract, ARestartOnSqliteContinuesFromTheCursor) {
    script("hooks/extract.lua", R"lua(
mnemo.on("extract", function(session, events, next)
  local items = {}
  for _, event in ipairs(events) do
    items[#items + 1] = {text = string.format("seq %d at %.6f", event.seq, mnemo.now()), metadata = {seq = event.seq}}
  end
  return items
end)
)lua");
    std::string yaml = sqlite_config("  capture: extract\n  extract_trigger: {any: {events: 3}}\n") +
                       "scripts:\n  dir: " + scripts_.path() + "\n";
    start_daemon(yaml);
    for (int i = 1; i <= 5; ++i) ASSERT_EQ(append("e6", append_body("event " + std::to_string(i))).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 1), 1);
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;  // events 4 and 5 wait below the trigger
    for (int i = 6; i <= 8; ++i) ASSERT_EQ(append("e6", append_body("event " + std::to_string(i))).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 1), 1);
    std::vector<int64_t> seqs;
    for (const auto& [text, memory] : memories()) seqs.push_back(json_int(memory, "/metadata/seq").value_or(0));
    std::sort(seqs.begin(), seqs.end());
    EXPECT_EQ(seqs, (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

class MemoryExtractCommand : public MemoryExtract {
protected:
    std::string command_config(const std::string& args, const std::string& more = "") {
        return config(capture(2, "  extractor: command\n  extract_command: [/usr/bin/python3, " +
                                     std::string(MNEMO_SOURCE_DIR) + "/tests/fixtures/extract_memories.py" + args +
                                     "]\n" + more));
    }
};

TEST_F(MemoryExtractCommand, TheCommandsItemsBecomeMemoriesOfTheSession) {
    start_daemon(command_config(""));
    ASSERT_EQ(append("c1", append_body("remember: Speaks Portuguese")).status, 200);
    ASSERT_EQ(append("c1", append_body("what is the weather")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_jobs_total", 1), 1);
    auto stored = memories();
    ASSERT_EQ(stored.size(), 1u);
    const std::string& memory = stored.begin()->second;
    EXPECT_EQ(stored.begin()->first, "Speaks Portuguese");
    EXPECT_EQ(json_string(memory, "/namespace"), "facts");
    EXPECT_EQ(json_string(memory, "/session_id"), "c1");
    EXPECT_EQ(json_string(memory, "/metadata/session"), "c1");
    EXPECT_EQ(json_int(memory, "/metadata/seq"), 1);
}

TEST_F(MemoryExtractCommand, AFailingCommandFailsTheJobAndAppendsStillSucceed) {
    start_daemon(command_config(", --fail"));
    ASSERT_EQ(append("c2", append_body("remember: one")).status, 200);
    ASSERT_EQ(append("c2", append_body("remember: two")).status, 200);
    ASSERT_EQ(wait_metric("mnemo_memory_extract_failures_total", 1), 1);
    EXPECT_THAT(daemon_->log(), HasSubstr("memory.extract_command"));
    EXPECT_EQ(append("c2", append_body("three")).status, 200);
    EXPECT_TRUE(memories().empty());
}

// A slow extractor holds its worker (and then the queue): appends answer
// all the same, with the extra triggers counted as a full queue.
TEST_F(MemoryExtractCommand, ASlowExtractorNeverDelaysAppends) {
    start_daemon(command_config(", --sleep, '60'", "  queue_size: 1\nsummary:\n  workers: 1\n"));
    for (int i = 0; i < 12; ++i) {
        auto appended = append("c" + std::to_string(i % 4), append_body("remember: fact " + std::to_string(i)));
        ASSERT_EQ(appended.status, 200) << appended.body;
    }
    EXPECT_EQ(metric("mnemo_memory_extract_jobs_total"), 0) << "the extractor is still sleeping";
    EXPECT_GT(metric("mnemo_memory_extract_queue_full_total").value_or(0), 0);
    EXPECT_EQ(metric("mnemo_memory_extract_queue_depth"), 1);
}

}  // namespace
}  // namespace mnemo::integration
