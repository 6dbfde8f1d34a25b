// Capture through the core's event operations on the in-memory plugin:
// append, rewrite and rewind hand the captures built from the app's config
// to the backend, which stores and removes the memories with the events.
#include "core/clock.h"
#include "core/plugin_host.h"
#include "core/service.h"
#include "storage/backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace mnemo::core {
namespace {

// A stored memory, as memory_list gives it.
struct Stored {
    std::string text, name_space, source_session;
    int64_t source_seq = 0;
};

void on_memory(void* ctx, const mnemo_memory* m) {
    Stored row;
    row.text.assign(m->text.ptr, m->text.len);
    row.name_space.assign(m->name_space.ptr, m->name_space.len);
    if (m->source_session.ptr) row.source_session.assign(m->source_session.ptr, m->source_session.len);
    row.source_seq = m->source_seq;
    static_cast<std::vector<Stored>*>(ctx)->push_back(std::move(row));
}
void ignore_has_more(void* /*ctx*/) {}

EventInput turn(std::string role, std::string content_json) {
    EventInput event;
    event.author = role;
    event.role = std::move(role);
    event.content_json = std::move(content_json);
    return event;
}

class CaptureService : public ::testing::Test {
protected:
    void open(const std::string& memory_yaml) {
        auto loaded = config::load_string("storage: {plugin: memory}\n" + memory_yaml, "mnemod.yaml", "/tmp");
        ASSERT_TRUE(loaded.config) << (loaded.errors.empty() ? "?" : loaded.errors.front());
        config_ = loaded.config;
        auto plugin = storage::load_plugin("memory", MNEMO_BUILD_PLUGIN_DIR);
        ASSERT_TRUE(plugin.plugin) << plugin.error;
        std::string error;
        backend_ =
            storage::Backend::open(std::move(plugin.plugin), plugin_host(), config_->storage.options_json, &error);
        ASSERT_TRUE(backend_) << error;
    }
    Env env() { return Env{*backend_, config_, clock_}; }
    SessionRef session(const char* app = "shop") { return SessionRef{app, "u1", "s1"}; }

    void append(std::vector<EventInput> events, const char* app = "shop") {
        AppendInput in;
        in.ref = session(app);
        in.events = std::move(events);
        in.create_if_missing = true;
        Outcome outcome = append_events(env(), in);
        ASSERT_FALSE(outcome.error) << outcome.error->message;
    }
    // The user's memories, by source seq.
    std::vector<Stored> memories(const char* app = "shop") {
        mnemo_memory_list_req req{};
        req.app = storage::str(app);
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
        EXPECT_FALSE(failed) << failed->message;
        std::sort(rows.begin(), rows.end(),
                  [](const Stored& a, const Stored& b) { return a.source_seq < b.source_seq; });
        return rows;
    }
    std::vector<int64_t> seqs(const char* app = "shop") {
        std::vector<int64_t> out;
        for (const Stored& row : memories(app)) out.push_back(row.source_seq);
        return out;
    }

    ManualClock clock_{1'790'000'000'000'000};
    std::shared_ptr<const config::Config> config_;
    std::unique_ptr<storage::Backend> backend_;
};

TEST_F(CaptureService, AnAppendCapturesTheConfiguredRolesOfItsApp) {
    open("memory: {capture: none}\napps:\n  shop:\n    memory: {capture: events, capture_namespace: talk}\n");
    ASSERT_TRUE(backend_->memories());
    append({turn("user", R"({"text": "I prefer aisle seats"})"), turn("tool", R"("lookup")"),
            turn("assistant", R"("Noted")"), turn("user", R"({"image": "x.png"})")});
    std::vector<Stored> rows = memories();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].text, "I prefer aisle seats");
    EXPECT_EQ(rows[0].name_space, "talk");
    EXPECT_EQ(rows[0].source_session, "s1");
    EXPECT_EQ(rows[0].source_seq, 1);
    EXPECT_EQ(rows[1].text, "Noted");
    EXPECT_EQ(rows[1].source_seq, 3);

    append({turn("user", R"("elsewhere")")}, "desk");
    EXPECT_TRUE(memories("desk").empty()) << "the global capture: none";
}

TEST_F(CaptureService, RewindAndRewriteRemoveTheMemoriesOfTheEventsTheyHide) {
    open("memory: {capture: events}\n");
    append(
        {turn("user", R"("q1")"), turn("assistant", R"("a1")"), turn("user", R"("q2")"), turn("assistant", R"("a2")")});
    ASSERT_EQ(seqs(), (std::vector<int64_t>{1, 2, 3, 4}));

    RewindInput back;
    back.ref = session();
    Outcome undone = rewind(env(), back);
    ASSERT_FALSE(undone.error) << undone.error->message;
    EXPECT_EQ(seqs(), (std::vector<int64_t>{1, 2}));

    RewriteInput again;
    again.ref = session();
    again.events.push_back(turn("user", R"("q1 edited")"));
    again.events.push_back(turn("system", R"("rules")"));
    Outcome rewritten = rewrite_events(env(), again);
    ASSERT_FALSE(rewritten.error) << rewritten.error->message;
    std::vector<Stored> rows = memories();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].text, "q1 edited");
    EXPECT_EQ(rows[0].source_seq, 5);
}

}  // namespace
}  // namespace mnemo::core
