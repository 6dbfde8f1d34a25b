#include "core/render.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <utility>

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

namespace mnemo::core {
namespace {

std::string events_array(const mnemo_event& e, void (*write)(JsonWriter&, const mnemo_event&)) {
    std::string out;
    JsonWriter w(out);
    w.begin_array();
    write(w, e);
    write(w, e);
    w.end_array();
    return out;
}

// write_event() writes plain events without the writer's calls: every mix of
// present and absent fields, timestamps null or not, extreme seqs and strings
// that need escaping (those take the writer's path) give the writer's bytes.
TEST(EventRender, TheFastPathGivesTheWritersBytesForEveryMixOfFields) {
    const mnemo_str raws[] = {str(R"({"text":"hi"})"), str("[1,2]"), str("{}"), str("null"), str(R"("x")"),
                              str(R"({"k":"v"})")};
    const std::pair<const char*, const char*> escaping[] = {
        {"id", "e\"1"}, {"author", "a\nb"}, {"role", "r\\"}, {"filter_key", "f\x01"}, {"invocation_id", "i\"v"}};
    for (unsigned fields = 0; fields < 256; ++fields) {
        for (int variant = 0; variant < 7; ++variant) {
            mnemo_event e = event(1, "evt_1", "{}");
            e.seq = variant == 1 ? INT64_MIN : variant == 2 ? INT64_MAX : -7 + variant;
            e.content_json = (fields & 1) ? raws[0] : mnemo_str{};
            e.state_delta_json = (fields & 2) ? raws[1] : mnemo_str{};
            e.usage_json = (fields & 4) ? raws[2] : mnemo_str{};
            e.tool_calls_json = (fields & 8) ? raws[3] : mnemo_str{};
            e.media_json = (fields & 16) ? raws[4] : mnemo_str{};
            e.metadata_json = (fields & 32) ? raws[5] : mnemo_str{};
            e.invocation_id = (fields & 64) ? str("inv-9") : mnemo_str{};
            e.deleted_at_us = (fields & 128) ? 1'800'000'000'000'001 : 0;
            if (variant == 3) e.timestamp_us = 0;
            if (variant == 4) e.filter_key = str("team/a");
            if (variant >= 5) {
                const auto& [field, text] = escaping[(fields + static_cast<unsigned>(variant)) % 5];
                std::string_view name = field;
                mnemo_str value = str(text);
                if (name == "id") e.id = value;
                if (name == "author") e.author = value;
                if (name == "role") e.role = value;
                if (name == "filter_key") e.filter_key = value;
                if (name == "invocation_id") e.invocation_id = value;
            }
            ASSERT_EQ(events_array(e, write_event), events_array(e, write_event_by_writer))
                << "fields " << fields << " variant " << variant;
        }
    }
}

TEST(EventRender, APlainEventReadsAsTheApiShowsIt) {
    mnemo_event e = event(3, "evt_1", R"({"text":"hi"})");
    e.deleted_at_us = 1'700'000'000'000'009;
    std::string out;
    JsonWriter w(out);
    write_event(w, e);
    EXPECT_EQ(out, R"({"id":"evt_1","seq":3,"author":"me","role":"user","content":{"text":"hi"},"filter_key":"",)"
                   R"("timestamp":"2023-11-14T22:13:20.000003Z","deleted_at":"2023-11-14T22:13:20.000009Z"})");
}

}  // namespace
}  // namespace mnemo::core
