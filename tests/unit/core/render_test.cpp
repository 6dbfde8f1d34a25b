#include "core/render.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

using storage::str;

mnemo_event event(int64_t seq, const char* id, const char* content) {
    mnemo_event e{};
    e.seq = seq;
    e.id = str(id);
    e.author = str("me");
    e.role = str("user");
    e.content_json = str(content);
    e.filter_key = str("");
    e.timestamp_us = 1'700'000'000'000'000 + seq;
    return e;
}

mnemo_session session() {
    mnemo_session s{};
    s.app = str("a");
    s.user = str("u");
    s.id = str("s");
    s.title = str("");
    s.metadata_json = str("{}");
    s.created_at_us = s.updated_at_us = 1'700'000'000'000'000;
    s.version = 3;
    s.event_count = 2;
    return s;
}

// The body as it was rendered before streaming: events into their own
// array, then spliced after the session.
std::string spliced(const std::vector<mnemo_event>& events) {
    std::string array;
    JsonWriter a(array);
    a.begin_array();
    for (const auto& e : events) write_event(a, e);
    a.end_array();
    storage::Collector collector;
    mnemo_session s = session();
    collector.sink()->session(collector.sink()->ctx, &s);
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("session");
    write_session(w, collector.result().sessions.front(), nullptr);
    w.raw_field("events", array).key("summary").null().end_object();
    return body;
}

std::string rendered(const std::vector<mnemo_event>& events, bool session_first) {
    storage::Collector collector;
    EventArrayRenderer renderer([&](JsonWriter& w) {
        if (collector.result().sessions.empty()) return false;
        w.begin_object().key("session");
        write_session(w, collector.result().sessions.front(), nullptr);
        w.key("events");
        return true;
    });
    renderer.attach(collector);
    const mnemo_sink* sink = collector.sink();
    mnemo_session s = session();
    if (session_first) sink->session(sink->ctx, &s);
    for (const auto& e : events) sink->event(sink->ctx, &e);
    if (!session_first) sink->session(sink->ctx, &s);
    EXPECT_TRUE(renderer.finish());
    EXPECT_EQ(renderer.count(), static_cast<int64_t>(events.size()));
    renderer.writer().key("summary").null().end_object();
    return renderer.take();
}

TEST(EventArrayRenderer, StreamedEventsGiveTheSplicedBytes) {
    std::vector<mnemo_event> events{event(1, "e1", R"({"text":"hi"})"), event(2, "e2", R"({"text":"there"})")};
    EXPECT_EQ(rendered(events, true), spliced(events));
}

TEST(EventArrayRenderer, EventsBeforeTheSessionAreSplicedInAtFinish) {
    std::vector<mnemo_event> events{event(1, "e1", R"({"text":"hi"})"), event(2, "e2", R"([1,2])")};
    EXPECT_EQ(rendered(events, false), spliced(events));
}

TEST(EventArrayRenderer, NoEventsGiveAnEmptyArray) {
    EXPECT_EQ(rendered({}, true), spliced({}));
    EXPECT_NE(spliced({}).find(R"("events":[],"summary":null})"), std::string::npos);
}

TEST(EventArrayRenderer, FinishFailsWhenTheHeadNeverCouldBeWritten) {
    storage::Collector collector;
    EventArrayRenderer renderer([](JsonWriter&) { return false; });
    renderer.attach(collector);
    mnemo_event e = event(1, "e1", "{}");
    collector.sink()->event(collector.sink()->ctx, &e);
    EXPECT_FALSE(renderer.finish());
}

}  // namespace
}  // namespace mnemo::core
