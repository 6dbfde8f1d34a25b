// The append chain: order, short-circuit (drop), mutation, rejection, stored bytes kept.
#include "core/requests.h"
#include "lua_test_util.h"
#include "scripting/hook_calls.h"

#include <gmock/gmock.h>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

class AppendHooks : public ::testing::Test {
protected:
    void load(const std::string& code) { ASSERT_EQ(run_chunk(*state, code, "hooks/t.lua"), std::nullopt); }

    core::AppendInput decode(std::string body) {
        core::AppendInput in;
        in.ref = core::SessionRef{"shop", "u1", "s1"};
        auto error = core::decode_append(body, state->config()->limits, in);
        EXPECT_FALSE(error) << error->message;
        return in;
    }

    std::optional<core::Error> run(core::AppendInput& in) {
        return run_append_hooks(*state, in, state->config()->limits);
    }

    std::unique_ptr<ScriptState> state = make_state();
};

TEST_F(AppendHooks, ChainRunsInLoadOrderAndMutationsAreKept) {
    load(R"(
        for _, tag in ipairs({'a', 'b', 'c'}) do
            mnemo.on('append', function(ctx, next)
                ctx.event.content.text = ctx.event.content.text .. tag
                return next()
            end)
        end)");
    auto in = decode(R"({"events":[{"author":"user","content":{"text":"x"}}]})");
    ASSERT_FALSE(run(in));
    ASSERT_EQ(in.events.size(), 1u);
    EXPECT_EQ(in.events[0].content_json, R"({"text":"xabc"})");
    EXPECT_EQ(in.dropped, 0);
}

TEST_F(AppendHooks, NotCallingNextDropsTheEventAndSkipsTheRestOfTheChain) {
    load(R"(
        mnemo.on('append', function(ctx, next)
            if ctx.event.content == 'noise' then return end
            return next()
        end)
        mnemo.on('append', function(ctx, next)
            ctx.event.metadata = {second = true}
            return next()
        end))");
    auto in = decode(R"({"events":[{"author":"user","content":"noise"},{"author":"user","content":"keep"}]})");
    ASSERT_FALSE(run(in));
    ASSERT_EQ(in.events.size(), 1u);
    EXPECT_EQ(in.events[0].content_json, R"("keep")");
    EXPECT_EQ(in.events[0].metadata_json, R"({"second":true})");
    EXPECT_EQ(in.dropped, 1);
}

TEST_F(AppendHooks, AnErrorRejectsTheWholeBatchWithTheHookText) {
    load(R"(
        mnemo.on('append', function(ctx, next)
            if ctx.event.content == 'bad' then error('no bad words here') end
            return next()
        end))");
    auto in = decode(R"({"events":[{"author":"user","content":"fine"},{"author":"user","content":"bad"}]})");
    auto error = run(in);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, core::ErrorCode::Rejected);
    EXPECT_THAT(error->message, HasSubstr("no bad words here"));
    EXPECT_THAT(error->message, HasSubstr("hooks/t.lua:3:"));
}

TEST_F(AppendHooks, AnUnchangedEventKeepsItsBytes) {
    load("mnemo.on('append', function(ctx, next) local _ = ctx.event.content.a return next() end)");
    auto in = decode(
        R"({"events":[{"author":"user","content":{ "z" : 1,  "a" : [1, 2] },"state_delta":{"k":1,"temp:t":2}}]})");
    ASSERT_FALSE(run(in));
    ASSERT_EQ(in.events.size(), 1u);
    EXPECT_EQ(in.events[0].content_json, R"({ "z" : 1,  "a" : [1, 2] })");
    EXPECT_EQ(in.events[0].delta.changes.size(), 2u);
}

TEST_F(AppendHooks, AMutationIntoAnInvalidEventIsRejected) {
    load("mnemo.on('append', function(ctx, next) ctx.event.role = 'wizard' return next() end)");
    auto in = decode(R"({"events":[{"author":"user","content":"x"}]})");
    auto error = run(in);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, core::ErrorCode::Rejected);
    EXPECT_THAT(error->message, HasSubstr("events[0].role: unknown role 'wizard'"));
}

TEST_F(AppendHooks, TheSessionIsReadOnlyAndPartialEventsSkipTheChain) {
    load(R"(
        mnemo.on('append', function(ctx, next)
            assert(ctx.app == 'shop' and ctx.user == 'u1' and ctx.session.id == 's1')
            ctx.session.id = 'other'
        end))");
    auto partial = decode(R"({"events":[{"author":"user","content":"p","partial":true}]})");
    EXPECT_FALSE(run(partial));
    EXPECT_EQ(partial.events.size(), 1u);
    auto in = decode(R"({"events":[{"author":"user","content":"x"}]})");
    auto error = run(in);
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("ctx.session is read-only"));
}

TEST_F(AppendHooks, NextReturnsWhatTheRestOfTheChainReturns) {
    load(R"(
        seen = {}
        mnemo.on('append', function(ctx, next) seen[#seen + 1] = select('#', next()) return 'ignored' end)
        mnemo.on('append', function(ctx, next) next() return 'from second', 2 end))");
    auto in = decode(R"({"events":[{"author":"user","content":"x"}]})");
    ASSERT_FALSE(run(in));
    EXPECT_EQ(in.events.size(), 1u);
    EXPECT_EQ(run_chunk(*state, "assert(seen[1] == 2)"), std::nullopt);
}

TEST_F(AppendHooks, PairsSeesEveryFieldAndAKeptContextGoesStale) {
    load(R"(
        mnemo.on('append', function(ctx, next)
            if kept then
                local ok, err = pcall(function() return kept.session.id end)
                stale = err
            end
            kept = ctx
            local names = {}
            for k in pairs(ctx.event) do names[#names + 1] = k end
            table.sort(names)
            listed = table.concat(names, ',')
            return next()
        end))");
    auto first = decode(R"({"events":[{"author":"user","content":"a","metadata":{"m":1}}]})");
    ASSERT_FALSE(run(first));
    EXPECT_EQ(first.events[0].content_json, R"("a")");
    auto second = decode(R"({"events":[{"author":"user","content":"b"}]})");
    ASSERT_FALSE(run(second));
    EXPECT_EQ(run_chunk(*state,
                        "assert(listed == 'author,content,role', listed)\n"
                        "assert(stale:find('only valid during their append hook call'), stale)"),
              std::nullopt);
}

}  // namespace
}  // namespace mnemo::scripting::testing
