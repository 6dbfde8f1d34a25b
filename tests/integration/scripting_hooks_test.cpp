// Hook chains through the real daemon: append (order, mutation, drop, rejection), get, reset.
#include "scripting_fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

using ScriptingHooks = ScriptingTest;

constexpr const char* kTagHooks = R"(
for _, tag in ipairs({'1', '2'}) do
  mnemo.on('append', function(ctx, next)
    local text = ctx.event.content.text
    if text == 'drop' then return end
    if text == 'forbidden' then error('forbidden words are not stored') end
    ctx.event.content.text = text .. tag
    return next()
  end)
end
)";

TEST_F(ScriptingHooks, AppendChainRunsInOrderAndStoresTheMutation) {
    script("hooks/10-tags.lua", kTagHooks);
    start_daemon(config());
    auto response = append("h1", append_body("x"));
    ASSERT_EQ(response.status, 200) << response.body;
    auto session = call("GET", session_path("h1"));
    EXPECT_EQ(json_string(session.body, "/events/0/content/text"), "x12");
}

TEST_F(ScriptingHooks, NotCallingNextDropsTheEventAndCountsIt) {
    script("hooks/10-tags.lua", kTagHooks);
    start_daemon(config());
    auto response = append("h2", R"({"create_if_missing":true,"events":[{"author":"user","content":{"text":"drop"}},
                                      {"author":"user","content":{"text":"keep"}}]})");
    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(json_int(response.body, "/dropped"), 1);
    EXPECT_EQ(json_int(response.body, "/appended/0/seq"), 1);
    EXPECT_EQ(version_and_count("h2").second, 1);
}

TEST_F(ScriptingHooks, RejectionIs422WithTheHookTextAndStoresNothingOfTheBatch) {
    script("hooks/10-tags.lua", kTagHooks);
    start_daemon(config());
    create_session("h3");
    auto response = append("h3", R"({"events":[{"author":"user","content":{"text":"fine"}},
                                      {"author":"user","content":{"text":"forbidden"}}]})");
    expect_error(response, 422, "rejected");
    EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("forbidden words are not stored"));
    EXPECT_EQ(version_and_count("h3"), std::make_pair(int64_t{1}, int64_t{0}));
}

TEST_F(ScriptingHooks, GetHookFiltersEventsAndUntouchedEventsKeepTheirBytes) {
    script("hooks/20-get.lua", R"(
mnemo.on('get', function(ctx, next)
  local session = next()
  local kept = {}
  for _, event in ipairs(session.events) do
    if event.role ~= 'system' then kept[#kept + 1] = event end
  end
  session.events = kept
  session.metadata.filtered_for = ctx.session_id
  return session
end)
)");
    start_daemon(config());
    auto response = append("h4", R"({"create_if_missing":true,"events":[{"author":"system","content":"rules"},
                                      {"author":"user","content":{ "text" : "spaced  out" }}]})");
    ASSERT_EQ(response.status, 200) << response.body;
    auto session = call("GET", session_path("h4"));
    ASSERT_EQ(session.status, 200) << session.body;
    EXPECT_EQ(json_raw(session.body, "/events/1"), std::nullopt);
    EXPECT_EQ(json_string(session.body, "/events/0/role"), "user");
    EXPECT_THAT(session.body, HasSubstr(R"("content":{ "text" : "spaced  out" })"));
    EXPECT_EQ(json_string(session.body, "/session/metadata/filtered_for"), "h4");
}

TEST_F(ScriptingHooks, ResetHookRunsWhenALaneMovesToANewSession) {
    script("hooks/30-reset.lua", R"(
last_reset = 'none'
mnemo.on('reset', function(lane, old, new, reason, next)
  last_reset = reason .. ' ' .. lane.lane .. ' ' .. old.id .. ' -> ' .. new.id
  return next()
end)
mnemo.on('get', function(ctx, next)
  local session = next()
  session.metadata.last_reset = last_reset
  return session
end)
)");
    start_daemon(config());
    auto first = call("POST", "/v1/apps/shop/lanes/dm:1/resolve", R"({"user":"u1"})");
    ASSERT_EQ(first.status, 200) << first.body;
    auto old_id = json_string(first.body, "/session/id").value_or("");
    auto reset = call("POST", "/v1/apps/shop/lanes/dm:1/reset");
    ASSERT_EQ(reset.status, 200) << reset.body;
    auto new_id = json_string(reset.body, "/session/id").value_or("");
    std::string expected = "reset dm:1 " + old_id + " -> " + new_id;
    std::optional<std::string> seen;
    eventually([&] {
        return (seen = json_string(call("GET", session_path(new_id)).body, "/session/metadata/last_reset")) == expected;
    });
    EXPECT_EQ(seen, expected);
}

TEST_F(ScriptingHooks, WithoutHooksAppendsAnswerAsBefore) {
    start_daemon(config());
    auto response = append("h5", append_body("plain"));
    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(json_int(response.body, "/dropped"), 0);
    EXPECT_EQ(json_string(call("GET", session_path("h5")).body, "/events/0/content/text"), "plain");
}

}  // namespace
}  // namespace mnemo::integration
