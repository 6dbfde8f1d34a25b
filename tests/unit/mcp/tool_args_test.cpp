// Tool arguments: the inputSchema made from a table, and the check of a
// call's arguments against the same table.
#include "mcp/tool_args.h"

#include <gtest/gtest.h>

#include <vector>

namespace mnemo::mcp {
namespace {

const std::vector<ArgSpec> kSpecs = {
    {"query", ArgType::String, true, "What to look for.", {}, {}},
    {"limit", ArgType::Integer, false, "How many.", {}, 1},
    {"mode", ArgType::String, false, "How.", {"hybrid", "keyword"}, {}},
    {"exact", ArgType::Boolean, false, "Exactly.", {}, {}},
    {"metadata", ArgType::Object, false, "Extra.", {}, {}},
};

std::optional<std::string> check(const std::optional<std::string>& json, Args& args) {
    return check_arguments(json, kSpecs, args);
}

// The error of one check, on fresh arguments.
std::optional<std::string> error_of(const std::optional<std::string>& json) {
    Args args;
    return check_arguments(json, kSpecs, args);
}

TEST(ToolArgs, SchemaComesFromTheTable) {
    EXPECT_EQ(input_schema(kSpecs),
              R"({"type":"object","properties":{"query":{"type":"string","description":"What to look for."},)"
              R"("limit":{"type":"integer","description":"How many.","minimum":1},)"
              R"("mode":{"type":"string","description":"How.","enum":["hybrid","keyword"]},)"
              R"("exact":{"type":"boolean","description":"Exactly."},)"
              R"("metadata":{"type":"object","description":"Extra."}},)"
              R"("required":["query"],"additionalProperties":false})");
}

TEST(ToolArgs, ValuesComeBackAsText) {
    Args args;
    EXPECT_EQ(check(R"({"query":"a\nb","limit":5,"exact":true,"metadata":{"k": [1]},"mode":null})", args),
              std::nullopt);
    EXPECT_EQ(args.get("query"), "a\nb");
    EXPECT_EQ(args.get("limit"), "5");
    EXPECT_EQ(args.get("exact"), "true");
    EXPECT_EQ(args.get("metadata"), R"({"k": [1]})");
    EXPECT_EQ(args.get("mode"), std::nullopt);
}

TEST(ToolArgs, ErrorsNameTheArgument) {
    EXPECT_EQ(error_of(R"({"query":"x","limit":"5"})"), "argument 'limit': expected an integer, got a string");
    EXPECT_EQ(error_of(R"({"query":"x","limit":2.5})"), "argument 'limit': expected an integer, got a number");
    EXPECT_EQ(error_of(R"({"query":7})"), "argument 'query': expected a string, got a number");
    EXPECT_EQ(error_of(R"({"query":"x","exact":"yes"})"), "argument 'exact': expected true or false, got a string");
    EXPECT_EQ(error_of(R"({"query":"x","metadata":[]})"), "argument 'metadata': expected a JSON object, got an array");
    EXPECT_EQ(error_of(R"({"query":"x","user":"u2"})"),
              "unknown argument 'user'; this tool takes query, limit, mode, exact, metadata");
    EXPECT_EQ(error_of(R"({"query":"x","query":"y"})"), "argument 'query' is given twice");
    EXPECT_EQ(error_of(R"({"limit":1})"), "argument 'query' is required: What to look for.");
    EXPECT_EQ(error_of(std::nullopt), "argument 'query' is required: What to look for.");
    EXPECT_EQ(error_of("[1]"), "arguments: expected a JSON object of named arguments");
}

}  // namespace
}  // namespace mnemo::mcp
