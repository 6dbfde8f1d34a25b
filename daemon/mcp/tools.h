/*
 * mcp/tools.h -- the MCP tools: remember, recall, forget,
 * search_conversations, list_conversations, get_conversation.
 *
 * Owns each tool's description, argument table, output schema and its
 * mapping onto the services the HTTP routes call: the arguments go through
 * the same decoders (limits, names, text sizes, recall options) and the
 * same core and memory operations (dedupe, recall, hooks), on the same
 * executor. Every tool acts as the {user} of the {app} in the endpoint's
 * URL; no argument can name another. A tool that fails answers a result
 * with isError and the service's message, never a JSON-RPC error.
 */
#pragma once

#include "api/api.h"
#include "mcp/tool_args.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::mcp {

// What a tool answers: structured_json is the HTTP route's answer (empty
// with is_error); text is what a model reads.
struct ToolResult {
    bool is_error = false;
    std::string text;
    std::string structured_json;
};
using ToolDone = std::function<void(ToolResult)>;

// One tools/call, past the argument check.
struct ToolRequest {
    api::Api& api;
    std::shared_ptr<api::Call> call;  // the HTTP request: {app}, {user}, the config
    Args args;
    std::optional<std::string> arguments_json;
};

struct Tool {
    std::string_view name;
    std::string_view description;
    std::vector<ArgSpec> args;
    std::string output_schema;
    // What this deployment adds to the description (recall: whether it matches by meaning); may be null.
    std::string (*note)(const api::Api& api);
    // False when this deployment cannot serve it (no memories, no search): tools/list leaves it out.
    bool (*available)(const api::Api& api);
    void (*run)(ToolRequest& request, ToolDone done);
};

const std::vector<Tool>& tools();
// The tool of that name when this deployment serves it; nullptr otherwise.
const Tool* find_tool(const api::Api& api, std::string_view name);
// tools/list's result: {"tools": [...]}.
std::string list_tools(const api::Api& api);
// A CallToolResult: content (one text block), structuredContent, isError.
std::string render_tool_result(const ToolResult& result);

}  // namespace mnemo::mcp
