#include "core/json_input.h"
#include "core/state_delta.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

std::string nested(int depth) {
    return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

TEST(JsonInput, DepthSixtyFourAcceptedSixtyFiveRejected) {
    EXPECT_FALSE(validate_json(nested(64)));
    auto error = validate_json(nested(65));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, ErrorCode::InvalidArgument);
    EXPECT_EQ(error->message, "request body nests deeper than 64 levels");
}

TEST(JsonInput, RepeatedKeysAreRefusedNamingTheKey) {
    std::string body = R"({"a":1,"b":2,"a":3})";
    auto error = for_each_field(body, [](std::string_view, od::value&) { return std::optional<Error>(); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, "a: the key appears more than once in its object; send each key once");
    std::string many = "{";
    for (int i = 0; i < 100; ++i) many += "\"k" + std::to_string(i) + "\":0,";
    std::string unique = many.substr(0, many.size() - 1) + "}";
    EXPECT_FALSE(for_each_field(unique, [](std::string_view, od::value&) { return std::optional<Error>(); }));
    std::string repeated = many + "\"k57\":1}";
    auto late = for_each_field(repeated, [](std::string_view, od::value&) { return std::optional<Error>(); });
    ASSERT_TRUE(late);
    EXPECT_EQ(late->message.substr(0, 5), "k57: ");
}

TEST(JsonInput, MalformedJsonNamesTheProblem) {
    auto error = validate_json(R"({"a": [1,,2]})");
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("not valid JSON"), std::string::npos);
}

TEST(JsonInput, OutOfRangeNumbersNameTheirField) {
    auto huge = validate_json(R"({"events":[{"content":"x"},{"metadata":{"n":1e400}}]})");
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->message.rfind("events[1].metadata.n: the number 1e400 is out of range", 0), 0u) << huge->message;
    auto wide = validate_json(R"({"ttl_seconds": 123456789012345678901234567890 })");
    ASSERT_TRUE(wide);
    EXPECT_EQ(wide->message.rfind("ttl_seconds: the number 123456789012345678901234567890 is out of range", 0), 0u)
        << wide->message;
    EXPECT_FALSE(validate_json(R"({"max":18446744073709551615,"min":-9223372036854775808,"d":1.5e308})"));
    auto malformed = validate_json(R"({"n":01})");
    ASSERT_TRUE(malformed);
    EXPECT_NE(malformed->message.find("not valid JSON"), std::string::npos) << malformed->message;
}

TEST(StateDelta, SplitsScopesAndStripsTempFromStoredDelta) {
    std::string body = R"({"state_delta": {"cart": 2, "app:promo": null, "user:lang": "de", "temp:draft": "x"}})";
    ParsedBody parsed;
    ASSERT_FALSE(parse_body(body, parsed));
    od::value value = parsed.document["state_delta"];
    DecodedDelta delta;
    ASSERT_FALSE(decode_delta(value, "state_delta", true, MNEMO_SCOPE_SESSION, delta));
    ASSERT_EQ(delta.changes.size(), 4u);
    EXPECT_EQ(delta.changes[0].scope, MNEMO_SCOPE_SESSION);
    EXPECT_EQ(delta.changes[1].scope, MNEMO_SCOPE_APP);
    EXPECT_FALSE(delta.changes[1].value_json);  // null deletes
    EXPECT_EQ(delta.changes[2].scope, MNEMO_SCOPE_USER);
    EXPECT_EQ(delta.changes[2].key, "lang");
    EXPECT_EQ(delta.changes[3].scope, kScopeTemp);
    EXPECT_EQ(delta.stored_json, R"({"cart":2,"app:promo":null,"user:lang":"de"})");
    EXPECT_EQ(to_ops(delta.changes).size(), 3u);
}

TEST(StateDelta, KeepsRawBytesWhenNothingIsStripped) {
    std::string body = R"({"state_delta": {"b" : [1,  2], "a":{"z":1,"y":2}}})";
    ParsedBody parsed;
    ASSERT_FALSE(parse_body(body, parsed));
    od::value value = parsed.document["state_delta"];
    DecodedDelta delta;
    ASSERT_FALSE(decode_delta(value, "state_delta", true, MNEMO_SCOPE_SESSION, delta));
    EXPECT_EQ(delta.stored_json, R"({"b" : [1,  2], "a":{"z":1,"y":2}})");
    EXPECT_EQ(delta.changes[0].value_json, "[1,  2]");
}

TEST(StateDelta, PrefixWithoutNameIsRejected) {
    std::string body = R"({"state_delta": {"app:": 1}})";
    ParsedBody parsed;
    ASSERT_FALSE(parse_body(body, parsed));
    od::value value = parsed.document["state_delta"];
    DecodedDelta delta;
    auto error = decode_delta(value, "state_delta", true, MNEMO_SCOPE_SESSION, delta);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, "state_delta: state key 'app:' has no name after its prefix");
}

}  // namespace
}  // namespace mnemo::core
