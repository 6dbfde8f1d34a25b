// Fuzz target: the MCP endpoint's JSON-RPC decoder (mcp/jsonrpc.h) on any
// bytes a client may POST. Beyond not crashing, it checks that every answer
// the endpoint would write from what was decoded is valid JSON, and that an
// echoed request id reads back as the same id.
#include "core/json_input.h"
#include "fuzz_check.h"
#include "mcp/jsonrpc.h"

#include <cstdint>
#include <string>
#include <variant>

namespace {

void require(bool condition, const char* what, const std::string& text) {
    mnemo::fuzz::require(condition, "jsonrpc", what, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace mnemo::mcp;
    std::string body(reinterpret_cast<const char*>(data), size);
    auto decoded = decode_message(body);
    if (auto* error = std::get_if<DecodeError>(&decoded)) {
        std::string answer = error_message(error->id_json, error->code, error->message);
        require(!mnemo::core::validate_json(answer), "an error answer is not valid JSON", answer);
        return 0;
    }
    const Message& message = std::get<Message>(decoded);
    if (message.kind != Message::Kind::Request) return 0;
    std::string answer = result_message(message.id_json, message.params_json.value_or("{}"));
    auto again = decode_message(answer);
    require(std::holds_alternative<Message>(again), "a result answer does not decode", answer);
    const Message& response = std::get<Message>(again);
    require(response.kind == Message::Kind::Response && response.id_json == message.id_json,
            "a result answer does not echo the id", answer);
    return 0;
}
