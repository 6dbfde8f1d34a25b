#include "mcp/tools.h"

#include "api/handlers.h"
#include "core/ids.h"
#include "core/json_writer.h"
#include "core/search.h"
#include "memory/memory_render.h"
#include "memory/memory_requests.h"
#include "memory/memory_service.h"

#include <fmt/format.h>

namespace mnemo::mcp {
namespace {

using CallPtr = std::shared_ptr<api::Call>;

// ---- output schemas: the HTTP routes' answers (docs/api.md, docs/memories.md) ----

constexpr std::string_view kNullableString = R"({"type":["string","null"]})";

std::string memory_properties() {
    return fmt::format(
        R"("id":{{"type":"string"}},"app":{{"type":"string"}},"user":{{"type":"string"}},)"
        R"("namespace":{{"type":"string"}},"text":{{"type":"string"}},"metadata":{{"type":"object"}},)"
        R"("session_id":{0},"source":{{"type":["object","null"]}},)"
        R"("embedding":{{"type":"string","enum":["ready","pending","failed","none"]}},"embedding_model":{0},)"
        R"("created_at":{{"type":"string"}},"updated_at":{{"type":"string"}},"expires_at":{0})",
        kNullableString);
}

constexpr std::string_view kMemoryRequired = R"(["id","namespace","text","metadata","embedding","created_at"])";

std::string remember_schema() {
    return fmt::format(R"({{"type":"object","properties":{{{},"created":{{"type":"boolean"}}}},"required":{}}})",
                       memory_properties(), R"(["id","text","namespace","embedding","created"])");
}

std::string recall_schema() {
    std::string hit = fmt::format(
        R"({{"type":"object","properties":{{{},"score":{{"type":"number"}},"similarity":{{"type":["number","null"]}},)"
        R"("keyword_rank":{{"type":["integer","null"]}},"vector_rank":{{"type":["integer","null"]}}}},"required":{}}})",
        memory_properties(), kMemoryRequired);
    return fmt::format(
        R"({{"type":"object","properties":{{"mode":{{"type":"string","enum":["hybrid","semantic","keyword"]}},)"
        R"("memories":{{"type":"array","items":{}}}}},"required":["mode","memories"]}})",
        hit);
}

std::string forget_schema() {
    return R"({"type":"object","properties":{"id":{"type":"string"},"deleted":{"type":"boolean"}},)"
           R"("required":["id","deleted"]})";
}

constexpr std::string_view kSessionHead =
    R"({"type":"object","properties":{"app":{"type":"string"},"user":{"type":"string"},"id":{"type":"string"},)"
    R"("title":{"type":"string"},"updated_at":{"type":"string"},"metadata":{"type":"object"}},)"
    R"("required":["id","updated_at"]})";

std::string search_schema() {
    return fmt::format(
        R"({{"type":"object","properties":{{"results":{{"type":"array","items":{{"type":"object","properties":{{)"
        R"("session":{},"hits":{{"type":"array","items":{{"type":"object","properties":{{"seq":{{"type":"integer"}},)"
        R"("role":{{"type":"string"}},"excerpt":{{"type":"string"}},)"
        R"("highlights":{{"type":"array","items":{{"type":"array","items":{{"type":"integer"}}}}}},)"
        R"("context":{{"type":"array"}}}},)"
        R"("required":["seq","excerpt"]}}}}}},"required":["session","hits"]}}}}}},"required":["results"]}})",
        kSessionHead);
}

std::string list_schema() {
    return fmt::format(
        R"({{"type":"object","properties":{{"sessions":{{"type":"array","items":{}}},"next_page_token":{}}},)"
        R"("required":["sessions"]}})",
        kSessionHead, kNullableString);
}

std::string conversation_schema() {
    return fmt::format(
        R"({{"type":"object","properties":{{"session":{},"events":{{"type":"array","items":{{"type":"object",)"
        R"("properties":{{"id":{{"type":"string"}},"seq":{{"type":"integer"}},"role":{{"type":"string"}},)"
        R"("timestamp":{{"type":"string"}}}},"required":["seq","role"]}}}},"summary":{{"type":["object","null"]}}}},)"
        R"("required":["session","events"]}})",
        kSessionHead);
}

// ---- running ----

// The answer of a service as a tool result; a 5xx is counted and logged as the routes do.
ToolResult from_outcome(api::Api& api, const api::Call& call, core::Outcome&& outcome) {
    if (outcome.error) {
        api.note_failure(call, *outcome.error);
        return ToolResult{true, std::move(outcome.error->message), {}};
    }
    std::string text = outcome.body;
    return ToolResult{false, std::move(text), std::move(outcome.body)};
}

ToolResult refused(const core::Error& error) {
    return ToolResult{true, error.message, {}};
}

api::Executor::Done answer(ToolRequest& request, ToolDone done) {
    return [&api = request.api, call = request.call, done = std::move(done)](core::Outcome&& outcome) {
        done(from_outcome(api, *call, std::move(outcome)));
    };
}

const std::string& param(const CallPtr& call, std::string_view name) {
    return call->params.get(name);
}

// The arguments a read route takes as query parameters, under their query names.
api::Query as_query(const Args& args, std::initializer_list<std::pair<std::string_view, std::string_view>> names) {
    api::Query query;
    for (const auto& [argument, parameter] : names) {
        if (auto value = args.get(argument)) query.add(std::string(parameter), std::move(*value));
    }
    return query;
}

bool has_memories(const api::Api& api) {
    return api.backend().memories();
}

bool has_search(const api::Api& api) {
    return core::has_search_op(api.backend());
}

bool always(const api::Api&) {
    return true;
}

void remember(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    memory::WriteMemoriesInput in;
    in.app = param(call, "app");
    in.user = param(call, "user");
    memory::MemoryItemInput item;
    auto limits = memory::request_limits(*call->config, in.app);
    if (auto error = memory::decode_text_item(request.arguments_json.value_or("{}"), "", limits, item)) {
        return done(refused(*error));
    }
    in.write.items.push_back(std::move(item));
    // Queued to a backend that queues its writes, as the route's: no pool thread waits for the commit.
    auto written = std::make_shared<std::vector<storage::MemoryWritten>>();
    request.api.executor().run_write(
        memory::begin_write_memories(request.api.memory_env(*call), std::move(in), written),
        [written, then = answer(request, std::move(done))](core::Outcome&& outcome) {
            if (!outcome.error && !written->empty())
                outcome = core::Outcome::ok(memory::render_written_memory(written->front()));
            then(std::move(outcome));
        });
}

std::string recall_note(const api::Api& api) {
    const memory::MemoryLinks* links = api.memory_links();
    if (links != nullptr && links->embed_query) {
        return " Matches by meaning and by words (mode hybrid); mode keyword or semantic narrows it.";
    }
    return " Matches by words only: this server has no embedder, so mode semantic is refused.";
}

void recall(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    const Args& args = request.args;
    memory::RecallQueryParams params{args.get("query"), args.get("namespace"), args.get("mode"), args.get("limit"), {}};
    memory::RecallInput in;
    in.user = param(call, "user");
    if (auto error = memory::decode_recall_params(params, in)) return done(refused(*error));
    // Recall takes milliseconds of vector search: always off the loop thread, as the route does.
    request.api.executor().run_on_worker([env = request.api.memory_env(*call), app = param(call, "app"),
                                          in = std::move(in)] { return memory::recall(env, app, in); },
                                         answer(request, std::move(done)));
}

void forget(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    memory::MemoryRef ref{param(call, "app"), param(call, "user"), request.args.get("id").value_or("")};
    if (auto error = memory::check_memory_id(ref.id, "id")) return done(refused(*error));
    std::string id = ref.id;
    request.api.executor().run_write(
        memory::begin_delete_memory(request.api.memory_env(*call), std::move(ref)),
        [id = std::move(id), then = answer(request, std::move(done))](core::Outcome&& outcome) {
            if (!outcome.error) {
                std::string body;
                core::JsonWriter(body).begin_object().field("id", id).field("deleted", true).end_object();
                outcome = core::Outcome::ok(std::move(body));
            }
            then(std::move(outcome));
        });
}

void search_conversations(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    api::Query query = as_query(request.args, {{"query", "q"}, {"limit", "limit"}, {"context", "context"}});
    query.add("user", param(call, "user"));
    core::SearchInput in;
    in.app = param(call, "app");
    if (auto error = api::handlers::decode_search(query, in)) return done(refused(*error));
    request.api.executor().run([env = request.api.env(*call), in = std::move(in)] { return core::search(env, in); },
                               answer(request, std::move(done)));
}

void list_conversations(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    api::Query query = as_query(request.args, {{"limit", "limit"}, {"active_within", "active_within"}});
    core::ListSessionsInput in;
    in.app = param(call, "app");
    in.user = param(call, "user");
    if (auto error = api::handlers::decode_list_sessions(query, in)) return done(refused(*error));
    request.api.executor().run(
        [env = request.api.env(*call), in = std::move(in)] { return core::list_sessions(env, in); },
        answer(request, std::move(done)));
}

void get_conversation(ToolRequest& request, ToolDone done) {
    const CallPtr& call = request.call;
    std::string session = request.args.get("session_id").value_or("");
    if (!core::valid_name(session)) {
        return done(ToolResult{true, fmt::format("session_id '{}' {}", session, core::name_problem(session)), {}});
    }
    api::Query query =
        as_query(request.args, {{"num_recent_events", "num_recent_events"}, {"from_checkpoint", "from_checkpoint"}});
    core::GetSessionInput in;
    in.ref = core::SessionRef{param(call, "app"), param(call, "user"), std::move(session)};
    if (auto error = api::handlers::decode_get_session(query, in)) return done(refused(*error));
    api::handlers::read_session(request.api, *call, std::move(in), answer(request, std::move(done)));
}

std::vector<Tool> make_tools() {
    using T = ArgType;
    std::vector<Tool> list;
    list.push_back(Tool{
        "remember",
        "Store a fact, preference or decision about this user as a long-term memory, to recall in later "
        "conversations. The same text again is not stored twice.",
        {{"text", T::String, true, "What to remember, as one self-contained sentence.", {}, {}},
         {"namespace",
          T::String,
          false,
          "A group for the memory, e.g. preferences or facts; letters, digits and . _ : @ - only. Default: none.",
          {},
          {}},
         {"metadata",
          T::Object,
          false,
          "Any JSON object to keep with the memory, e.g. {\"source\": \"chat\"}.",
          {},
          {}}},
        remember_schema(),
        nullptr,
        has_memories,
        remember,
    });
    list.push_back(Tool{
        "recall",
        "Find this user's memories relevant to a question or topic, best first. Ask in natural language "
        "(\"what seat does the user prefer?\"): any of its words can match, and the memories holding the "
        "rarest words, in any form (prefer, preferred), come first.",
        {{"query", T::String, true, "The question or topic, in the user's own words.", {}, {}},
         {"limit", T::Integer, false, "At most this many memories (default 10, at most 100).", {}, 1},
         {"namespace", T::String, false, "Only memories of this namespace (\"\" is the default one).", {}, {}},
         {"mode",
          T::String,
          false,
          "How to match: hybrid, semantic (by meaning) or keyword (by words).",
          {"hybrid", "semantic", "keyword"},
          {}}},
        recall_schema(),
        recall_note,
        has_memories,
        recall,
    });
    list.push_back(Tool{
        "forget",
        "Delete one of this user's memories by its id (the id that remember or recall gave).",
        {{"id", T::String, true, "The memory's id.", {}, {}}},
        forget_schema(),
        nullptr,
        has_memories,
        forget,
    });
    list.push_back(Tool{
        "search_conversations",
        "Search the transcripts of this user's past conversations with a natural question or a few words; "
        "paths, URLs, commands and \"quoted parts\" are also found exactly as written and come first. "
        "Answers the best matching conversations first, with excerpts and the messages around each match.",
        {{"query",
          T::String,
          true,
          "A question or words (any of them can match; the best matches come first), or an exact string such "
          "as a file path or a command; \"\" lists the latest conversations.",
          {},
          {}},
         {"limit", T::Integer, false, "At most this many conversations (default 10, at most 100).", {}, 1},
         {"context",
          T::Integer,
          false,
          "Messages to show before and after each match (default 1, at most 10).",
          {},
          0}},
        search_schema(),
        nullptr,
        has_search,
        search_conversations,
    });
    list.push_back(Tool{
        "list_conversations",
        "List this user's conversations, most recently active first, without their messages.",
        {{"limit", T::Integer, false, "At most this many conversations (default 50, at most 1000).", {}, 1},
         {"active_within", T::Integer, false, "Only conversations active within this many seconds.", {}, 0}},
        list_schema(),
        nullptr,
        always,
        list_conversations,
    });
    list.push_back(Tool{
        "get_conversation",
        "Read one of this user's conversations: its details and messages (oldest first), with its latest "
        "summary when asked.",
        {{"session_id", T::String, true, "The conversation's id, as list_conversations or search gave it.", {}, {}},
         {"num_recent_events", T::Integer, false, "Only the newest this many messages.", {}, 0},
         {"from_checkpoint",
          T::Boolean,
          false,
          "true: the latest summary and only the messages after it (shorter for long conversations).",
          {},
          {}}},
        conversation_schema(),
        nullptr,
        always,
        get_conversation,
    });
    return list;
}

}  // namespace

const std::vector<Tool>& tools() {
    static const std::vector<Tool> list = make_tools();
    return list;
}

const Tool* find_tool(const api::Api& api, std::string_view name) {
    for (const Tool& tool : tools()) {
        if (tool.name == name && tool.available(api)) return &tool;
    }
    return nullptr;
}

std::string list_tools(const api::Api& api) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().key("tools").begin_array();
    for (const Tool& tool : tools()) {
        if (!tool.available(api)) continue;
        std::string description(tool.description);
        if (tool.note != nullptr) description += tool.note(api);
        w.begin_object().field("name", tool.name).field("description", description);
        w.raw_field("inputSchema", input_schema(tool.args)).raw_field("outputSchema", tool.output_schema);
        w.end_object();
    }
    w.end_array().end_object();
    return out;
}

std::string render_tool_result(const ToolResult& result) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().key("content").begin_array();
    w.begin_object().field("type", "text").field("text", result.text).end_object();
    w.end_array();
    if (!result.structured_json.empty()) w.raw_field("structuredContent", result.structured_json);
    w.field("isError", result.is_error).end_object();
    return out;
}

}  // namespace mnemo::mcp
