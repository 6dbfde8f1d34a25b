// scripts/summarize.lua: the extractive summarizer on a realistic 200-event transcript, and its trigger.
#include "lua_test_util.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"

#include <fmt/format.h>
#include <gmock/gmock.h>

#include <sstream>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A deployment-debugging conversation: 200 events, the interesting ones buried in chatter.
std::string transcript() {
    const char* chatter[] = {
        "Let me look at the logs first.",
        "The service restarted twice in the last hour.",
        "I see a spike in memory usage around noon.",
        "That lines up with the cron job schedule.",
        "Checking the load balancer health checks now.",
        "Health checks look green from here.",
        "The error rate dropped after the restart.",
        "I will keep an eye on the dashboard.",
    };
    std::ostringstream out;
    out << "[";
    for (int i = 1; i <= 200; ++i) {
        std::string role = i % 2 == 1 ? "user" : "assistant";
        std::string text = chatter[i % 8];
        if (i == 17) text = "The config lives in /etc/nginx/sites-enabled/app.conf and it has a stale upstream.";
        if (i == 42) text = "Run `systemctl reload nginx` after editing it, then `git push origin main`.";
        if (i == 77) text = "The runbook is at https://wiki.example.com/ops/nginx?section=reload#steps for reference.";
        if (i == 120) text = "We decided to pin the upstream to the blue pool until Friday.";
        if (i == 181) text = "Should we also rotate the TLS certificates this week?";
        if (role == "assistant" && i != 42 && i != 120 && i != 17) text += " Anything else?";
        out << (i > 1 ? "," : "")
            << fmt::format(R"({{"seq":{},"author":"{}","role":"{}","content":{{"text":"{}"}}}})", i,
                           role == "user" ? "user" : "ops-bot", role, text);
    }
    out << "]";
    return out.str();
}

std::optional<std::string> summarize(ScriptState& state, const std::string& events, const char* previous) {
    std::optional<std::string> text;
    auto error = state.bounded([&](lua_State* L) {
        lua_pushcfunction(L, [](lua_State*) { return 0; });
        push_json(L, R"({"app":"ops","user":"u1","id":"s1"})");
        push_json(L, events);
        if (previous) {
            lua_pushstring(L, previous);
        } else {
            lua_pushnil(L);
        }
        call_chain(L, Hook::Summarize, 3, 1);
        if (lua_type(L, -1) == LUA_TSTRING) text = lua_tostring(L, -1);
        return 0;
    });
    EXPECT_FALSE(error) << *error;
    return text;
}

size_t words(const std::string& text) {
    std::istringstream in(text);
    size_t n = 0;
    for (std::string word; in >> word;) ++n;
    return n;
}

class SummarizeLua : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(run_chunk(*state, read_source_file("scripts/summarize.lua"), "summarize.lua"), std::nullopt);
    }
    std::unique_ptr<ScriptState> state = make_state({1000000, 64u << 20, 1000000}, "summary: {max_words: 60}\n");
};

TEST_F(SummarizeLua, KeepsThePathTheUrlAndTheCommandsWithinMaxWords) {
    auto text = summarize(*state, transcript(), nullptr);
    ASSERT_TRUE(text);
    EXPECT_THAT(*text, StartsWith("Summary:"));
    EXPECT_THAT(*text, HasSubstr("/etc/nginx/sites-enabled/app.conf"));
    EXPECT_THAT(*text, HasSubstr("https://wiki.example.com/ops/nginx?section=reload#steps"));
    EXPECT_THAT(*text, HasSubstr("`systemctl reload nginx`"));
    EXPECT_THAT(*text, HasSubstr("pin the upstream to the blue pool"));
    EXPECT_THAT(*text, HasSubstr("Should we also rotate the TLS certificates this week?"));
    EXPECT_LE(words(*text), 60u) << *text;
}

TEST_F(SummarizeLua, CarriesThePreviousSummaryWhenWordsAreLeft) {
    auto text = summarize(*state, R"([{"seq":1,"author":"user","role":"user","content":"ok"}])",
                          "Summary: earlier we moved the database to /srv/db.");
    ASSERT_TRUE(text);
    EXPECT_THAT(*text, HasSubstr("Earlier: earlier we moved the database to /srv/db."));
}

TEST_F(SummarizeLua, TriggerFollowsTheConfiguredThresholds) {
    std::optional<bool> wanted;
    auto call = [&](int events, int tokens) {
        auto error = state->bounded([&](lua_State* L) {
            lua_pushcfunction(L, [](lua_State* L2) {
                lua_pushboolean(L2, 0);
                return 1;
            });
            push_json(L, R"({"app":"a","user":"u","id":"s"})");
            push_json(
                L,
                fmt::format(
                    R"({{"events_since_summary":{},"tokens_since_summary":{},"seconds_since_last_event":0,"seconds_since_summary":1}})",
                    events, tokens));
            call_chain(L, Hook::ShouldSummarize, 2, 1);
            wanted = lua_toboolean(L, -1) != 0;
            return 0;
        });
        EXPECT_FALSE(error) << *error;
        return wanted.value_or(false);
    };
    EXPECT_FALSE(call(19, 3999));  // default trigger: any of events 20, tokens 4000
    EXPECT_TRUE(call(20, 0));
    EXPECT_TRUE(call(0, 4000));
}

}  // namespace
}  // namespace mnemo::scripting::testing
