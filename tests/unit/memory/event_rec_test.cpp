// The memory backend's stored event (plugins/memory/event_rec.h): every field
// round-trips through its one block, absent stays apart from empty, and the
// search text is kept whether or not it is a slice of the content.
#include "event_rec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mnemo::memory {
namespace {

mnemo_str str(const std::string& s) {
    return mnemo_str{s.data(), s.size()};
}

// Every field distinct, so a field read from another's bytes shows.
struct Given {
    std::string id = "ev-1", invocation = "inv-7", author = "grep-bot", role = "tool";
    std::string content = R"({"text":"find the needle"})", delta = R"({"k":1})", usage_json = R"({"input_tokens":3})";
    std::string tools = R"([{"name":"grep"}])", media = R"([{"path":"/a.png"}])", metadata = R"({"m":true})";
    std::string filter_key = "branch/x", search = "find the needle";

    mnemo_event event() const {
        mnemo_event e{};
        e.id = str(id);
        e.id_from_client = 1;
        e.invocation_id = str(invocation);
        e.author = str(author);
        e.role = str(role);
        e.content_json = str(content);
        e.state_delta_json = str(delta);
        e.usage_json = str(usage_json);
        e.tool_calls_json = str(tools);
        e.media_json = str(media);
        e.metadata_json = str(metadata);
        e.filter_key = str(filter_key);
        e.timestamp_us = 1'700'000'000'000'001;
        e.usage = mnemo_usage{3, 4, 5, 6, 7, 0.25};
        e.search_text = str(search);
        return e;
    }
};

std::string bytes(mnemo_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string("<absent>");
}

void expect_same_row(const mnemo_event& got, const mnemo_event& want) {
    EXPECT_EQ(bytes(got.id), bytes(want.id));
    EXPECT_EQ(got.id_from_client, want.id_from_client);
    EXPECT_EQ(bytes(got.invocation_id), bytes(want.invocation_id));
    EXPECT_EQ(bytes(got.author), bytes(want.author));
    EXPECT_EQ(bytes(got.role), bytes(want.role));
    EXPECT_EQ(bytes(got.content_json), bytes(want.content_json));
    EXPECT_EQ(bytes(got.state_delta_json), bytes(want.state_delta_json));
    EXPECT_EQ(bytes(got.usage_json), bytes(want.usage_json));
    EXPECT_EQ(bytes(got.tool_calls_json), bytes(want.tool_calls_json));
    EXPECT_EQ(bytes(got.media_json), bytes(want.media_json));
    EXPECT_EQ(bytes(got.metadata_json), bytes(want.metadata_json));
    EXPECT_EQ(bytes(got.filter_key), bytes(want.filter_key));
    EXPECT_EQ(got.timestamp_us, want.timestamp_us);
    EXPECT_EQ(got.usage.input_tokens, want.usage.input_tokens);
    EXPECT_EQ(got.usage.output_tokens, want.usage.output_tokens);
    EXPECT_EQ(got.usage.cache_read_tokens, want.usage.cache_read_tokens);
    EXPECT_EQ(got.usage.cache_write_tokens, want.usage.cache_write_tokens);
    EXPECT_EQ(got.usage.total_tokens, want.usage.total_tokens);
    EXPECT_EQ(got.usage.cost_usd, want.usage.cost_usd);
}

TEST(EventRec, EveryFieldRoundTrips) {
    const Given given;
    const mnemo_event in = given.event();
    const EventRec rec(in, 42);
    EXPECT_EQ(rec.seq(), 42);
    EXPECT_EQ(rec.id(), "ev-1");
    EXPECT_TRUE(rec.id_from_client());
    EXPECT_EQ(rec.author(), "grep-bot");
    EXPECT_EQ(rec.role(), "tool");
    EXPECT_EQ(rec.filter_key(), "branch/x");
    EXPECT_EQ(rec.text(EventRec::kToolCalls), given.tools);
    EXPECT_EQ(rec.search_text(), "find the needle");
    EXPECT_EQ(rec.deleted_at_us(), 0);
    EXPECT_EQ(rec.search_ordinal(), EventRec::kNotIndexed);
    const mnemo_event out = rec.row();
    expect_same_row(out, in);
    EXPECT_EQ(out.seq, 42);
    EXPECT_EQ(out.deleted_at_us, 0);
    EXPECT_EQ(out.search_text.ptr, nullptr) << "a backend never returns the search text";
}

TEST(EventRec, AbsentOptionalFieldsStayApartFromEmptyOnes) {
    Given given;
    given.invocation.clear();
    given.content.clear();
    mnemo_event in = given.event();
    in.id_from_client = 0;
    in.state_delta_json = in.usage_json = in.tool_calls_json = in.media_json = in.metadata_json = {nullptr, 0};
    in.usage = mnemo_usage{};
    in.search_text = {nullptr, 0};
    const EventRec rec(in, 1);
    EXPECT_FALSE(rec.id_from_client());
    EXPECT_TRUE(rec.has(EventRec::kInvocationId)) << "empty, not absent";
    EXPECT_TRUE(rec.has(EventRec::kContent));
    EXPECT_EQ(rec.text(EventRec::kContent), "");
    for (EventRec::Field f :
         {EventRec::kStateDelta, EventRec::kUsageJson, EventRec::kToolCalls, EventRec::kMedia, EventRec::kMetadata})
        EXPECT_FALSE(rec.has(f)) << "field " << int(f);
    const mnemo_event out = rec.row();
    ASSERT_NE(out.content_json.ptr, nullptr);
    EXPECT_EQ(out.content_json.len, 0u);
    ASSERT_NE(out.invocation_id.ptr, nullptr);
    EXPECT_EQ(out.media_json.ptr, nullptr);
    EXPECT_EQ(out.metadata_json.ptr, nullptr);
    EXPECT_EQ(out.usage.total_tokens, 0);
    EXPECT_EQ(out.usage.cost_usd, 0.0);
    EXPECT_EQ(rec.search_text(), "");

    EXPECT_TRUE(rec.same(EventRec::kContent, mnemo_str{"", 0}));
    EXPECT_FALSE(rec.same(EventRec::kContent, mnemo_str{nullptr, 0}));
    EXPECT_TRUE(rec.same(EventRec::kMedia, mnemo_str{nullptr, 0}));
    EXPECT_FALSE(rec.same(EventRec::kMedia, mnemo_str{"", 0}));
}

TEST(EventRec, RequiredFieldsGivenAbsentReadAsEmpty) {
    mnemo_event in{};
    const EventRec rec(in, 3);
    EXPECT_TRUE(rec.has(EventRec::kId));
    EXPECT_TRUE(rec.has(EventRec::kFilterKey));
    const mnemo_event out = rec.row();
    ASSERT_NE(out.author.ptr, nullptr);
    EXPECT_EQ(out.author.len, 0u);
    EXPECT_EQ(out.content_json.ptr, nullptr);
}

TEST(EventRec, SearchTextNotInContentIsKeptBesideTheFields) {
    Given given;
    given.content = R"({"text":"line one\nline two"})";
    given.search = "line one\nline two\ngrep";  // the host's: escapes decoded, tool names added
    const EventRec rec(given.event(), 1);
    EXPECT_EQ(rec.search_text(), given.search);
    expect_same_row(rec.row(), given.event());
}

TEST(EventRec, SearchTextFoundInContentIsTheContentsBytes) {
    Given given;
    const EventRec rec(given.event(), 1);
    const std::string_view content = rec.text(EventRec::kContent);
    const std::string_view search = rec.search_text();
    EXPECT_EQ(search, given.search);
    EXPECT_GE(search.data(), content.data()) << "a slice, not a copy";
    EXPECT_LE(search.data() + search.size(), content.data() + content.size());
}

// The text's first byte occurs many times before the text does: the first
// places are compared directly, the rest are left to memmem.
TEST(EventRec, SearchTextFoundPastManyFalseStarts) {
    Given given;
    given.search = "abc";
    given.content = R"({"text":"aaaaaaaaaaaaaaaaab abc"})";
    const EventRec rec(given.event(), 1);
    const std::string_view content = rec.text(EventRec::kContent);
    const std::string_view search = rec.search_text();
    EXPECT_EQ(search, "abc");
    EXPECT_EQ(search.data(), content.data() + content.find("abc")) << "the slice, not a copy";
    expect_same_row(rec.row(), given.event());
}

TEST(EventRec, SearchTextWithManyNearMissesIsKeptBesideTheFields) {
    Given given;
    given.search = "abd";
    given.content = R"({"text":"ab ab ab ab ab ab ab ab ab abc"})";
    const EventRec rec(given.event(), 1);
    const std::string_view content = rec.text(EventRec::kContent);
    const std::string_view search = rec.search_text();
    EXPECT_EQ(search, "abd");
    EXPECT_TRUE(search.data() < content.data() || search.data() >= content.data() + content.size());
    expect_same_row(rec.row(), given.event());
}

TEST(EventRec, FieldAtMaxEventSizeRoundTrips) {
    Given given;
    // Far past limits.max_event_bytes' default; offsets are 32-bit.
    given.content = "\"" + std::string(8u << 20, 'x') + "\"";
    given.search = std::string(8u << 20, 'x');
    given.filter_key = std::string(70'000, 'k');  // past any 16-bit length
    const EventRec rec(given.event(), 9);
    EXPECT_EQ(rec.text(EventRec::kContent), given.content);
    EXPECT_EQ(rec.filter_key(), given.filter_key);
    EXPECT_EQ(rec.search_text(), given.search);
    expect_same_row(rec.row(), given.event());
}

TEST(EventRec, ReplacingOneFieldThroughItsRowKeepsTheOthers) {
    const Given given;
    const EventRec first(given.event(), 5);
    mnemo_event row = first.row();
    const std::string content = R"({"text":"another text, longer than the first one was"})";
    row.content_json = str(content);
    row.media_json = {nullptr, 0};
    const std::string search = "another text";
    row.search_text = str(search);
    const EventRec second(row, first.seq());
    mnemo_event want = given.event();
    want.content_json = str(content);
    want.media_json = {nullptr, 0};
    expect_same_row(second.row(), want);
    EXPECT_EQ(second.search_text(), "another text");
    SCOPED_TRACE("the first record is untouched");
    expect_same_row(first.row(), given.event());
}

TEST(EventRec, DeletionTimeAndSearchOrdinalChangeNothingElse) {
    const Given given;
    EventRec rec(given.event(), 8);
    rec.set_deleted_at(77);
    rec.set_search_ordinal(12);
    EXPECT_EQ(rec.deleted_at_us(), 77);
    EXPECT_EQ(rec.search_ordinal(), 12u);
    EXPECT_EQ(rec.row().deleted_at_us, 77);
    expect_same_row(rec.row(), given.event());
}

TEST(EventRec, MovesKeepTheBlock) {
    const Given given;
    std::vector<EventRec> records;
    for (int i = 0; i < 100; ++i) records.emplace_back(given.event(), i + 1);  // reallocations move them
    for (int i = 0; i < 100; ++i) {
        EXPECT_EQ(records[static_cast<size_t>(i)].seq(), i + 1);
        expect_same_row(records[static_cast<size_t>(i)].row(), given.event());
    }
}

}  // namespace
}  // namespace mnemo::memory
