// Which events become memories (core/capture.h): memory.capture and its roles,
// namespace, TTL and embedder, per app over the global section, and the
// capture text rules, read from a loaded config.
#include "core/capture.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace mnemo::core {
namespace {

constexpr int64_t kNow = 1'790'000'000'000'000;

std::shared_ptr<const config::Config> load(const std::string& yaml) {
    config::LoadResult result = config::load_string(yaml, "mnemod.yaml", "/srv/mnemo");
    std::string errors;
    for (const std::string& error : result.errors) errors += error + "\n";
    EXPECT_TRUE(result.errors.empty()) << errors;
    return result.config;
}

EventInput said(std::string role, std::optional<std::string> content_json) {
    EventInput event;
    event.author = role;
    event.role = std::move(role);
    event.content_json = std::move(content_json);
    return event;
}

// The captures of `events` for `app` as a backend receives them in an append.
struct Planned {
    std::vector<size_t> indexes;
    std::vector<std::string> ids, texts;
    std::string name_space;
    int64_t ttl_us = -1;
    int embedder = -1;
};

Planned plan(const config::Config& config, std::string_view app, std::vector<EventInput> events,
             bool backend_keeps_memories = true) {
    std::vector<EventInput*> stored;
    for (EventInput& event : events) stored.push_back(&event);
    CapturePlan captures = plan_captures(config.memory_for(app), backend_keeps_memories, stored, kNow);
    mnemo_append_req req{};
    captures.attach(req);
    Planned out;
    for (size_t i = 0; i < req.n_captures; ++i) {
        out.indexes.push_back(req.captures[i].event_index);
        out.ids.emplace_back(req.captures[i].memory_id.ptr, req.captures[i].memory_id.len);
        out.texts.emplace_back(req.captures[i].text.ptr, req.captures[i].text.len);
    }
    out.name_space.assign(req.capture.name_space.ptr, req.capture.name_space.len);
    out.ttl_us = req.capture.ttl_us;
    out.embedder = req.capture.embedder;
    return out;
}

std::vector<EventInput> conversation() {
    std::vector<EventInput> events;
    events.push_back(said("user", R"({"text": "I prefer aisle seats", "lang": "en"})"));
    events.push_back(said("tool", R"({"text": "lookup done"})"));
    events.push_back(said("assistant", R"("Noted: aisle")"));
    events.push_back(said("system", R"("be brief")"));
    return events;
}

TEST(CapturePlan, NothingUnlessCaptureIsEvents) {
    auto config = load("memory: {capture_roles: [user]}\n");
    EXPECT_TRUE(plan(*config, "shop", conversation()).indexes.empty()) << "capture: none by default";
    auto extract = load("memory: {capture: extract}\n");
    EXPECT_TRUE(plan(*extract, "shop", conversation()).indexes.empty());
}

TEST(CapturePlan, NothingForABackendWithoutMemories) {
    auto config = load("memory: {capture: events}\n");
    EXPECT_TRUE(plan(*config, "shop", conversation(), false).indexes.empty());
}

TEST(CapturePlan, TheDefaultRolesAreUserAndAssistantIntoNamespaceEvents) {
    auto config = load("memory: {capture: events}\n");
    Planned planned = plan(*config, "shop", conversation());
    EXPECT_EQ(planned.indexes, (std::vector<size_t>{0, 2}));
    EXPECT_EQ(planned.texts, (std::vector<std::string>{"I prefer aisle seats", "Noted: aisle"}));
    EXPECT_EQ(planned.name_space, "events");
    EXPECT_EQ(planned.ttl_us, 0);
    EXPECT_EQ(planned.embedder, 0) << "no embedder: status none";
}

TEST(CapturePlan, EachCaptureGetsItsOwnUuidV7) {
    auto config = load("memory: {capture: events}\n");
    Planned planned = plan(*config, "shop", conversation());
    ASSERT_EQ(planned.ids.size(), 2u);
    EXPECT_NE(planned.ids[0], planned.ids[1]);
    for (const std::string& id : planned.ids) {
        EXPECT_EQ(id.size(), 36u) << id;
        EXPECT_EQ(id[14], '7') << id;
    }
}

TEST(CapturePlan, RolesNamespaceAndTtlFollowTheGlobalSection) {
    auto config = load("memory: {capture: events, capture_roles: [tool, system], capture_namespace: chat, ttl: 1d}\n");
    Planned planned = plan(*config, "shop", conversation());
    EXPECT_EQ(planned.indexes, (std::vector<size_t>{1, 3}));
    EXPECT_EQ(planned.texts, (std::vector<std::string>{"lookup done", "be brief"}));
    EXPECT_EQ(planned.name_space, "chat");
    EXPECT_EQ(planned.ttl_us, 86400LL * 1000000);
}

TEST(CapturePlan, AnAppOverridesTheGlobalSection) {
    auto config = load(
        "memory: {capture: none, capture_roles: [user], ttl: 1d}\n"
        "apps:\n"
        "  shop:\n"
        "    memory: {capture: events, capture_namespace: talk, ttl: 90d}\n"
        "  desk:\n"
        "    memory: {capture: events, capture_roles: [assistant]}\n");
    Planned shop = plan(*config, "shop", conversation());
    EXPECT_EQ(shop.indexes, (std::vector<size_t>{0})) << "the global roles";
    EXPECT_EQ(shop.name_space, "talk");
    EXPECT_EQ(shop.ttl_us, 90LL * 86400 * 1000000);
    Planned desk = plan(*config, "desk", conversation());
    EXPECT_EQ(desk.indexes, (std::vector<size_t>{2}));
    EXPECT_EQ(desk.name_space, "events");
    EXPECT_EQ(desk.ttl_us, 86400LL * 1000000) << "the global ttl";
    EXPECT_TRUE(plan(*config, "other", conversation()).indexes.empty()) << "the global capture: none";
}

TEST(CapturePlan, AnEmbedderMakesCapturesPending) {
    auto config =
        load("memory:\n  capture: events\n  embedder: {kind: http, url: \"http://127.0.0.1:9/v1\", model: m}\n");
    EXPECT_EQ(plan(*config, "shop", conversation()).embedder, 1);
}

TEST(CapturePlan, TheTextIsContentTextOrAStringContent) {
    auto config = load("memory: {capture: events, capture_roles: [user]}\n");
    std::vector<EventInput> events;
    events.push_back(said("user", R"("plain \"quoted\" string")"));
    events.push_back(said("user", R"({"text": "the text", "other": "not this"})"));
    events.push_back(said("user", R"({"parts": ["no text key"]})"));
    events.push_back(said("user", R"({"text": 42})"));
    events.push_back(said("user", R"(["an", "array"])"));
    events.push_back(said("user", std::nullopt));  // a state_delta-only event
    events.push_back(said("user", R"("")"));
    events.push_back(said("user", R"({"text": " \n\t "})"));
    Planned planned = plan(*config, "shop", std::move(events));
    EXPECT_EQ(planned.indexes, (std::vector<size_t>{0, 1}));
    EXPECT_EQ(planned.texts, (std::vector<std::string>{"plain \"quoted\" string", "the text"}));
}

TEST(CapturePlan, ALongTextIsCutToMaxTextBytesOnACharacterBoundary) {
    auto config = load("memory: {capture: events, max_text_bytes: 5}\n");
    std::vector<EventInput> events;
    events.push_back(said("user", R"("abcdefgh")"));
    events.push_back(said("user", "\"abcd\xc3\xa9z\""));  // é spans bytes 5 and 6
    Planned planned = plan(*config, "shop", std::move(events));
    EXPECT_EQ(planned.texts, (std::vector<std::string>{"abcde", "abcd"}));
}

TEST(ContentText, ReadsTextOfAnObjectOrAString) {
    EXPECT_EQ(content_text(R"({"text": "a"})"), std::optional<std::string>("a"));
    EXPECT_EQ(content_text(R"("b")"), std::optional<std::string>("b"));
    EXPECT_EQ(content_text("{not json"), std::nullopt);
    EXPECT_EQ(content_text("12"), std::nullopt);
}

}  // namespace
}  // namespace mnemo::core
