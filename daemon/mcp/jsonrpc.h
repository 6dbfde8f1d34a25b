/*
 * mcp/jsonrpc.h -- JSON-RPC 2.0 messages of the MCP endpoint.
 *
 * Owns reading one POSTed body into a message (request, notification or a
 * client's response) and writing the answers. The decoder never trusts its
 * input: bad JSON, nesting past core's depth limit, a batch, a missing or
 * wrong "jsonrpc", an id that is neither a string nor an integer, a method
 * that is not a string, params that are not an object, a member given
 * twice, a number out of range (-32602, naming its field): each is an error
 * with the JSON-RPC code and a message saying what to send instead. Pure functions: no HTTP, no sessions (the fuzz target
 * tests/fuzz/jsonrpc_fuzz.cpp calls decode_message directly).
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mnemo::mcp {

// JSON-RPC 2.0 error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

struct Message {
    enum class Kind { Request, Notification, Response } kind = Kind::Request;
    std::string id_json;  // Request and Response: the id as JSON text, echoed verbatim ("7", "\"a\"")
    std::string method;   // Request and Notification
    std::optional<std::string> params_json;  // the params object's text, when given
};

struct DecodeError {
    int code = kInvalidRequest;
    std::string message;
    std::string id_json = "null";  // the request's id when it could be read
};

// One JSON-RPC message from a request body.
std::variant<Message, DecodeError> decode_message(std::string_view body);

// {"jsonrpc":"2.0","id":<id>,"result":<result>}
std::string result_message(std::string_view id_json, std::string_view result_json);
// {"jsonrpc":"2.0","id":<id>,"error":{"code":<code>,"message":<message>}}
std::string error_message(std::string_view id_json, int code, std::string_view message);

}  // namespace mnemo::mcp
