// The JSON-RPC decoder of the MCP endpoint: every kind of message, and each
// malformed body answered with its JSON-RPC code and the request's id.
#include "mcp/jsonrpc.h"

#include <gtest/gtest.h>

#include <string>

namespace mnemo::mcp {
namespace {

Message ok(std::string_view body) {
    auto decoded = decode_message(body);
    if (auto* error = std::get_if<DecodeError>(&decoded)) {
        ADD_FAILURE() << body << " -> " << error->code << " " << error->message;
        return {};
    }
    return std::get<Message>(decoded);
}

DecodeError bad(std::string_view body) {
    auto decoded = decode_message(body);
    if (!std::holds_alternative<DecodeError>(decoded)) {
        ADD_FAILURE() << body << " decoded as a message";
        return {};
    }
    return std::get<DecodeError>(decoded);
}

TEST(JsonRpcDecode, RequestKeepsIdAndParamsVerbatim) {
    Message m = ok(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recall", "arguments":{"q":1}}})");
    EXPECT_EQ(m.kind, Message::Kind::Request);
    EXPECT_EQ(m.id_json, "7");
    EXPECT_EQ(m.method, "tools/call");
    EXPECT_EQ(m.params_json, R"({"name":"recall", "arguments":{"q":1}})");
    Message s = ok(R"({"id":"a\"b","method":"ping","jsonrpc":"2.0"})");
    EXPECT_EQ(s.id_json, R"("a\"b")");
    EXPECT_FALSE(s.params_json.has_value());
}

TEST(JsonRpcDecode, NotificationsAndResponses) {
    Message n = ok(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(n.kind, Message::Kind::Notification);
    Message r = ok(R"({"jsonrpc":"2.0","id":3,"result":{}})");
    EXPECT_EQ(r.kind, Message::Kind::Response);
    EXPECT_EQ(r.id_json, "3");
    EXPECT_EQ(ok(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}})").kind, Message::Kind::Response);
}

TEST(JsonRpcDecode, NotJsonIsAParseError) {
    EXPECT_EQ(bad("").code, kParseError);
    EXPECT_EQ(bad("{\"jsonrpc\":").code, kParseError);
    EXPECT_EQ(bad("not json").code, kParseError);
    EXPECT_EQ(bad(std::string(70, '[') + std::string(70, ']')).code, kParseError);
    EXPECT_EQ(bad("{\"a\":\"\xff\"}").code, kParseError);
}

TEST(JsonRpcDecode, AnOutOfRangeNumberIsInvalidParamsNamingTheField) {
    DecodeError huge = bad(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{"n":1e400}}})");
    EXPECT_EQ(huge.code, kInvalidParams);
    EXPECT_EQ(huge.id_json, "9");
    EXPECT_EQ(huge.message.rfind("params.arguments.n: the number 1e400 is out of range", 0), 0u) << huge.message;
    DecodeError wide = bad(R"({"id":"a","params":{"list":[1, -99999999999999999999]},"method":"m","jsonrpc":"2.0"})");
    EXPECT_EQ(wide.code, kInvalidParams);
    EXPECT_EQ(wide.id_json, R"("a")");
    EXPECT_EQ(wide.message.rfind("params.list[1]: the number -99999999999999999999 is out of range", 0), 0u);
}

TEST(JsonRpcDecode, BatchesAndNonObjectsAreInvalidRequests) {
    DecodeError batch = bad(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
    EXPECT_EQ(batch.code, kInvalidRequest);
    EXPECT_EQ(batch.message, "JSON-RPC batches are not supported; send one message per request");
    EXPECT_EQ(batch.id_json, "null");
    EXPECT_EQ(bad("42").code, kInvalidRequest);
    EXPECT_EQ(bad("\"ping\"").code, kInvalidRequest);
}

TEST(JsonRpcDecode, WrongMembersNameTheMemberAndKeepTheId) {
    DecodeError version = bad(R"({"jsonrpc":"1.0","id":5,"method":"ping"})");
    EXPECT_EQ(version.code, kInvalidRequest);
    EXPECT_EQ(version.message, "jsonrpc: must be \"2.0\"");
    EXPECT_EQ(version.id_json, "5");
    EXPECT_EQ(bad(R"({"id":5,"method":"ping"})").message, "jsonrpc: must be \"2.0\"");
    DecodeError method = bad(R"({"jsonrpc":"2.0","id":"q","method":12})");
    EXPECT_EQ(method.message, "method: expected a string");
    EXPECT_EQ(method.id_json, "\"q\"");
    DecodeError params = bad(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]})");
    EXPECT_EQ(params.code, kInvalidParams);
    EXPECT_EQ(params.message, "params: expected an object");
    EXPECT_EQ(bad(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})").message, "id: given twice");
    EXPECT_EQ(bad(R"({"jsonrpc":"2.0"})").code, kInvalidRequest);
}

TEST(JsonRpcDecode, IdsAreStringsOrIntegers) {
    EXPECT_EQ(bad(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})").message, "id: expected a string or an integer");
    EXPECT_EQ(bad(R"({"jsonrpc":"2.0","id":null,"method":"ping"})").message,
              "id: must not be null; use a string or an integer");
    EXPECT_EQ(bad(R"({"jsonrpc":"2.0","id":{},"method":"ping"})").id_json, "null");
    EXPECT_EQ(ok(R"({"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"})").id_json, "-9007199254740993");
}

TEST(JsonRpcEncode, ResultsAndErrors) {
    EXPECT_EQ(result_message("7", "{}"), R"({"jsonrpc":"2.0","id":7,"result":{}})");
    EXPECT_EQ(error_message("\"a\"", kMethodNotFound, "no \"x\""),
              R"({"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no \"x\""}})");
}

}  // namespace
}  // namespace mnemo::mcp
