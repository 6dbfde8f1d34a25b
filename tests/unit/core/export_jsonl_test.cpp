// core/export_jsonl: odd values survive a line round trip byte for byte.
#include "core/export_jsonl.h"
#include "storage/rows.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

using storage::str;
const mnemo_str kAbsent{nullptr, 0};

mnemo_record event_record(const mnemo_event& event) {
    mnemo_record record{};
    record.kind = MNEMO_RECORD_EVENT;
    record.key = mnemo_key{str("shop"), str("u\xC3\xBC"), str("s1")};
    record.event = &event;
    return record;
}

TEST(ExportJsonl, OddStringsAndNestedJsonRoundTripExactly) {
    mnemo_event event{};
    event.seq = 7;
    event.id = str("id \"quoted\" \\ back\x01\x1f tab\t ☃ 𝄞");
    event.id_from_client = 1;
    event.invocation_id = kAbsent;
    event.author = str("user");
    event.role = str("user");
    event.content_json = str(R"({"a" : [1, 2.50, {"b":null}], "t":"\u00fc\n"})");
    event.tool_calls_json = str(R"([{"name":"grep","arguments":{"q":"x y"}}])");
    event.usage = mnemo_usage{1, 2, 3, 4, 5, 0.1 + 0.2};
    event.filter_key = str("a/b");
    event.timestamp_us = 1'790'000'000'123'456;
    std::string line = encode_record(event_record(event));
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;

    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt);
    EXPECT_EQ(back.kind, MNEMO_RECORD_EVENT);
    EXPECT_EQ(back.user, "u\xC3\xBC");
    EXPECT_EQ(back.event.id, std::string(event.id.ptr, event.id.len));
    EXPECT_FALSE(back.event.invocation_id);
    EXPECT_FALSE(back.event.media_json);
    EXPECT_EQ(back.event.content_json, std::string(event.content_json.ptr, event.content_json.len));
    EXPECT_EQ(back.event.tool_calls_json, std::string(event.tool_calls_json.ptr, event.tool_calls_json.len));
    EXPECT_EQ(back.event_usage.cost_usd, 0.1 + 0.2);
    EXPECT_EQ(back.event_usage.total_tokens, 5);
    EXPECT_EQ(back.event.timestamp_us, event.timestamp_us);
    EXPECT_TRUE(back.id_from_client);
    EXPECT_NE(back.search_text.find("x y"), std::string::npos) << back.search_text;
}

// A raw value with a line break (JSON whitespace) would split the line.
TEST(ExportJsonl, RawValueWithLineBreaksTravelsAsAString) {
    mnemo_event event{};
    event.seq = 1;
    event.id = str("e");
    event.author = str("user");
    event.role = str("user");
    event.content_json = str("{\n  \"text\": \"two\\nlines\"\r\n}");
    event.filter_key = str("");
    std::string line = encode_record(event_record(event));
    EXPECT_EQ(line.find_first_of("\r\n"), std::string::npos) << line;
    EXPECT_NE(line.find("\"content_json\":"), std::string::npos) << line;
    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt);
    EXPECT_EQ(back.event.content_json, std::string(event.content_json.ptr, event.content_json.len));
}

TEST(ExportJsonl, StateAndLaneKeepNullsAndFlags) {
    mnemo_record state{};
    state.kind = MNEMO_RECORD_STATE;
    state.scope = MNEMO_SCOPE_USER;
    state.key = mnemo_key{str("shop"), str("u1"), kAbsent};
    state.state_key = str("k\"ey");
    state.value_json = str("null");
    state.expires_at_us = 42;
    std::string line = encode_record(state);
    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    EXPECT_EQ(back.scope, MNEMO_SCOPE_USER);
    EXPECT_EQ(back.state_key, "k\"ey");
    EXPECT_EQ(back.value_json, "null");
    EXPECT_EQ(back.expires_at_us, 42);

    mnemo_lane lane{};
    lane.app = str("shop");
    lane.lane = str("tg:dm:1");
    lane.user = str("u1");
    lane.session_id = str("s1");
    lane.platform = str("");
    lane.chat_type = str("dm");
    lane.suspended = 1;
    lane.auto_reset_reason = str("idle");
    lane.restart_count = 2;
    lane.version = 9;
    mnemo_record lane_record{};
    lane_record.kind = MNEMO_RECORD_LANE;
    lane_record.lane = &lane;
    line = encode_record(lane_record);
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    EXPECT_TRUE(back.lane.suspended);
    EXPECT_FALSE(back.lane.resume_reason);
    EXPECT_EQ(back.lane.auto_reset_reason, "idle");
    EXPECT_EQ(back.lane.restart_count, 2);
    EXPECT_EQ(back.lane.version, 9);
}

// The extraction cursor travels with its session; an export from before it
// (no field) imports at 0; a cursor past last_seq is refused by name.
TEST(ExportJsonl, ASessionCarriesItsExtractionCursor) {
    mnemo_session session{};
    session.app = str("shop");
    session.user = str("u1");
    session.id = str("s1");
    session.metadata_json = str("{}");
    session.last_seq = 9;
    session.event_count = 9;
    session.extracted_seq = 6;
    mnemo_record record{};
    record.kind = MNEMO_RECORD_SESSION;
    record.key = mnemo_key{session.app, session.user, session.id};
    record.session = &session;
    std::string line = encode_record(record);
    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    EXPECT_EQ(back.session.extracted_seq, 6);

    session.extracted_seq = 0;
    line = encode_record(record);
    EXPECT_EQ(line.find("extracted_seq"), std::string::npos) << "written only once extraction ran: " << line;
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    EXPECT_EQ(back.session.extracted_seq, 0);

    session.extracted_seq = 6;
    line = encode_record(record);
    line.replace(line.find("\"extracted_seq\":6"), 17, "\"extracted_seq\":10");
    EXPECT_EQ(decode_record(line, back), "field \"extracted_seq\": expected 0 up to last_seq (9)");
}

TEST(ExportJsonl, ErrorsNameTheField) {
    JsonlRecord out;
    std::string line = R"({"kind":"track","app":"a","user":"u","session_id":"s","track":"t","seq":1.5,"payload":1,)"
                       R"("timestamp_us":1})";
    EXPECT_EQ(decode_record(line, out), "field \"seq\": expected an integer");
    line = R"({"kind":"nope"})";
    EXPECT_EQ(decode_record(line, out),
              "field \"kind\": \"nope\" is not one of session, event, state, summary, track, lane, memory");
    line = R"({"kind":"lane","app":"a"})";
    EXPECT_EQ(decode_record(line, out), "field \"lane\": missing");
    line = R"({"kind":"state","scope":"app","app":"a","key":"k","value":1,"expires_at_us":0,"extra":1})";
    EXPECT_EQ(decode_record(line, out), "field \"extra\": is not a field of this kind of record");
    line = "not json";
    EXPECT_TRUE(decode_record(line, out).has_value());
}

}  // namespace
}  // namespace mnemo::core
