// One extraction job (scripting/extract_job.h) on the in-memory plugin: the
// Lua `extract` chain gets the events after the session's cursor, its items
// become memories of the user (session_id set, dedupe applied, bad items
// skipped), and the cursor moves past them; a failed job leaves the cursor.
#include "core/clock.h"
#include "core/plugin_host.h"
#include "lua_test_util.h"
#include "scripting/extract_job.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

struct Stored {
    std::string text, session_id;
};

void on_memory(void* ctx, const mnemo_memory* m) {
    Stored row{std::string(m->text.ptr, m->text.len),
               m->session_id.ptr ? std::string(m->session_id.ptr, m->session_id.len) : ""};
    static_cast<std::vector<Stored>*>(ctx)->push_back(std::move(row));
}
void ignore_has_more(void*) {}

// One memory per event: "said: <text>".
constexpr const char* kHook = R"lua(
mnemo.on("extract", function(session, events, next)
  local items = {}
  for _, event in ipairs(events) do items[#items + 1] = {text = "said: " .. event.content.text} end
  return items
end)
)lua";

class ExtractJobTest : public ::testing::Test {
protected:
    void open(const std::string& hook, const std::string& yaml = "memory: {capture: extract}\n") {
        config_ = default_config("storage: {plugin: memory}\n" + yaml);
        ASSERT_TRUE(config_);
        auto plugin = storage::load_plugin("memory", MNEMO_BUILD_PLUGIN_DIR);
        ASSERT_TRUE(plugin.plugin) << plugin.error;
        std::string error;
        backend_ = storage::Backend::open(std::move(plugin.plugin), core::plugin_host(), "{}", &error);
        ASSERT_TRUE(backend_) << error;
        state_ = std::make_unique<ScriptState>(bounds_of(config_->scripts), config_);
        ASSERT_FALSE(run_chunk(*state_, hook));
    }
    core::Env env() { return core::Env{*backend_, config_, clock_}; }
    void append(const std::vector<std::string>& texts) {
        core::AppendInput in;
        in.ref = ref_;
        in.create_if_missing = true;
        for (const auto& text : texts) {
            core::EventInput event;
            event.author = "user";
            event.role = "user";
            event.content_json = R"({"text":")" + text + R"("})";
            in.events.push_back(std::move(event));
        }
        core::Outcome outcome = core::append_events(env(), in);
        ASSERT_FALSE(outcome.error) << outcome.error->message;
    }
    ExtractOutcome run() {
        core::Env e = env();
        JobContext context{e, state_.get(), stopping_};
        return run_extract_job(ExtractJob{ref_}, context, nullptr);
    }
    int64_t cursor() {
        storage::Collector collector;
        mnemo_session_get_req req{};
        req.key = mnemo_key{storage::str(ref_.app), storage::str(ref_.user), storage::str(ref_.id)};
        req.now_us = clock_.now_us();
        auto failed = backend_->call([&](mnemo_error* err) {
            return backend_->ops().session_get(backend_->handle(), &req, collector.sink(), err);
        });
        EXPECT_FALSE(failed);
        return collector.result().sessions.empty() ? -1 : collector.result().sessions.front().extracted_seq;
    }
    std::vector<Stored> memories() {
        mnemo_memory_list_req req{};
        req.app = storage::str("shop");
        req.user = storage::str("u1");
        req.limit = 100;
        req.now_us = clock_.now_us();
        std::vector<Stored> rows;
        mnemo_sink sink{};
        sink.ctx = &rows;
        sink.memory = on_memory;
        sink.has_more = ignore_has_more;
        auto failed = backend_->call(
            [&](mnemo_error* err) { return backend_->ops().memory_list(backend_->handle(), &req, &sink, err); });
        EXPECT_FALSE(failed);
        return rows;
    }

    core::ManualClock clock_{1'790'000'000'000'000};
    core::SessionRef ref_{"shop", "u1", "s1"};
    std::shared_ptr<const config::Config> config_;
    std::unique_ptr<storage::Backend> backend_;
    std::unique_ptr<ScriptState> state_;
    std::atomic<bool> stopping_{false};
};

TEST_F(ExtractJobTest, TheEventsAfterTheCursorBecomeMemoriesAndTheCursorMovesPastThem) {
    open(kHook);
    append({"tea", "coffee"});
    ExtractOutcome first = run();
    ASSERT_FALSE(first.error) << *first.error;
    EXPECT_EQ(first.events, 2);
    EXPECT_EQ(first.written, 2u);
    EXPECT_EQ(cursor(), 2);
    append({"water"});
    ExtractOutcome second = run();
    ASSERT_FALSE(second.error) << *second.error;
    EXPECT_EQ(second.events, 1) << "only the event after the cursor";
    EXPECT_EQ(cursor(), 3);
    auto rows = memories();
    ASSERT_EQ(rows.size(), 3u);
    for (const Stored& row : rows) EXPECT_EQ(row.session_id, "s1");
    ExtractOutcome idle = run();
    EXPECT_FALSE(idle.error);
    EXPECT_EQ(idle.events, 0) << "nothing after the cursor: nothing to do";
}

TEST_F(ExtractJobTest, DedupeByFoldedTextAppliesAndBadItemsAreSkipped) {
    open(R"lua(
mnemo.on("extract", function(session, events, next)
  return {{text = "Likes Tea"}, {text = ""}, {text = "likes   tea"}, {metadata = {}}}
end)
)lua");
    append({"x"});
    ExtractOutcome outcome = run();
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_EQ(outcome.written, 2u);
    EXPECT_EQ(outcome.skipped, 2u);
    ASSERT_EQ(memories().size(), 1u);
    EXPECT_EQ(memories()[0].text, "Likes Tea");
}

TEST_F(ExtractJobTest, AFailingHookLeavesTheCursorAndStoresNothing) {
    open(R"lua(mnemo.on("extract", function() error("no model") end))lua");
    append({"a", "b"});
    ExtractOutcome outcome = run();
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, HasSubstr("no model"));
    EXPECT_EQ(cursor(), 0);
    EXPECT_TRUE(memories().empty());
}

TEST_F(ExtractJobTest, AHookThatReturnsNoListFailsTheJob) {
    open(R"lua(mnemo.on("extract", function() return "facts" end))lua");
    append({"a"});
    ExtractOutcome outcome = run();
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, HasSubstr("returned a string"));
    EXPECT_EQ(cursor(), 0);
}

TEST_F(ExtractJobTest, NoHookRegisteredFailsTheJobNamingWhatToDo) {
    open("-- no hooks\n");
    append({"a"});
    ExtractOutcome outcome = run();
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, HasSubstr("mnemo.on(\"extract\", fn)"));
}

TEST_F(ExtractJobTest, AnEmptyTableExtractsNothingAndMovesTheCursor) {
    open(R"lua(mnemo.on("extract", function() return {} end))lua");
    append({"a", "b"});
    ExtractOutcome outcome = run();
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_EQ(outcome.written, 0u);
    EXPECT_EQ(cursor(), 2);
}

TEST_F(ExtractJobTest, AJobHandsOverAtMostItsBoundAndSaysMoreRemain) {
    open(kHook);
    std::vector<std::string> texts;
    for (int64_t i = 0; i < kMaxEventsPerJob + 5; ++i) texts.push_back("e" + std::to_string(i));
    append(texts);
    ExtractOutcome first = run();
    ASSERT_FALSE(first.error) << *first.error;
    EXPECT_EQ(first.events, kMaxEventsPerJob);
    EXPECT_TRUE(first.more);
    ExtractOutcome second = run();
    EXPECT_EQ(second.events, 5);
    EXPECT_FALSE(second.more);
    EXPECT_EQ(cursor(), kMaxEventsPerJob + 5);
}

}  // namespace
}  // namespace mnemo::scripting::testing

namespace mnemo::scripting::testing {
namespace {

// Hooks of one name chain in load order: each gets (session, events, next),
// and next() hands the rest of the chain the very same arguments.
TEST_F(ExtractJobTest, ChainedHooksEachGetTheSessionAndTheEvents) {
    open(R"lua(
mnemo.on("extract", function(session, events, next)
  local items = next()
  items[#items + 1] = {text = "first saw " .. #events .. " events of " .. session.id}
  return items
end)
mnemo.on("extract", function(session, events, next)
  return {{text = "second saw " .. #events .. " events of " .. session.id}}
end)
)lua");
    append({"a", "b"});
    ExtractOutcome outcome = run();
    ASSERT_FALSE(outcome.error) << *outcome.error;
    std::vector<std::string> texts;
    for (const Stored& row : memories()) texts.push_back(row.text);
    std::sort(texts.begin(), texts.end());
    EXPECT_EQ(texts, (std::vector<std::string>{"first saw 2 events of s1", "second saw 2 events of s1"}));
}

}  // namespace
}  // namespace mnemo::scripting::testing
