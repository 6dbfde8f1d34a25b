// memories.count, memories.search, memories.queue, memories.reembed: the
// long-term memories of CONSOLE.md, answered as the memory routes answer.
#include "console/admin_api.h"
#include "console/admin_call.h"

#include "core/json_writer.h"
#include "memory/embed_pipeline.h"
#include "memory/memory_index.h"
#include "memory/memory_requests.h"
#include "memory/memory_service.h"
#include "scripting/scripting.h"

#include <fmt/format.h>

namespace mnemo::console {
namespace {

// memories.count{app=, user=}: live memories (of the app, of one of its users).
int memories_count(lua_State* L) {
    const char* app = opt_name(L, 1, "app");
    const char* user = opt_name(L, 1, "user");
    if (user != nullptr && app == nullptr) return luaL_error(L, "invalid_argument: memories.count: user needs app");
    Admin& admin = Admin::of(L);
    std::optional<std::string> app_name, user_name;
    if (app != nullptr) app_name = app;
    if (user != nullptr) user_name = user;
    admin.storage_with_memories([app_name, user_name](const core::Env& env, const memory::MemoryLinks* links) {
        return memory::count_memories(memory::memory_env(env, links), app_name, user_name);
    });
    return admin.push_outcome_field(L, "total");
}

// memories.search(app, q, {user=, limit=, mode=, match=}): recall as POST /v1/apps/{app}/memories/search.
int memories_search(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* q = luaL_checkstring(L, 2);
    memory::RecallInput in;
    in.query = q;
    in.limit = opt_limit(L, 3, memory::kDefaultRecallLimit, memory::kMaxRecallLimit);
    if (const char* user = opt_name(L, 3, "user")) in.user = user;
    if (const char* mode = opt_name(L, 3, "mode")) {
        auto parsed = memory::parse_mode(mode);
        if (!parsed) return luaL_error(L, "invalid_argument: mode '%s' is not hybrid, semantic or keyword", mode);
        in.mode = *parsed;
    }
    if (const char* match = opt_name(L, 3, "match")) {
        if (std::string_view(match) != "any" && std::string_view(match) != "all")
            return luaL_error(L, "invalid_argument: match '%s' is not any or all", match);
        in.match_all = std::string_view(match) == "all";
    }
    Admin& admin = Admin::of(L);
    admin.storage_with_memories(
        [app = std::string(app), in = std::move(in)](const core::Env& env, const memory::MemoryLinks* links) {
            return memory::recall(memory::memory_env(env, links), app, in);
        });
    return admin.push_outcome(L);
}

// memories.queue(): the embedder's work: what storage holds pending, what
// the workers hold, the last error, the apps moving to another dimension,
// and the extraction jobs waiting.
int memories_queue(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        scripting::Scripting* scripting = host.scripting();
        done(core::Outcome::ok(std::to_string(scripting != nullptr ? scripting->queued_extractions() : 0)));
    });
    if (admin.outcome.error) return admin.push_outcome(L);
    const int64_t extractions = std::stoll(admin.outcome.body);
    admin.storage_with_memories([extractions](const core::Env& env, const memory::MemoryLinks* links) {
        auto counted = memory::count_memories(memory::memory_env(env, links), std::nullopt, std::nullopt);
        if (counted.error) return counted;
        std::string body;
        core::JsonWriter w(body);
        w.begin_object().key("memories").raw(counted.body);
        // Apps re-embedded into another dimension, as the index follows them.
        w.key("reembedding").begin_array();
        if (links != nullptr && links->index != nullptr) {
            for (const memory::IndexTransition& move : links->index->transitions()) {
                w.begin_object().field("app", move.app).field("from", static_cast<int64_t>(move.from));
                w.field("to", static_cast<int64_t>(move.to)).field("remaining", static_cast<int64_t>(move.remaining));
                w.field("moved", static_cast<int64_t>(move.moved)).end_object();
            }
        }
        w.end_array();
        w.key("extractions").begin_object().field("queued", extractions).end_object();
        if (links == nullptr || links->pipeline == nullptr) {
            w.key("embedder").null().end_object();
            return core::Outcome::ok(std::move(body));
        }
        memory::PipelineStats stats = links->pipeline->stats();
        w.key("embedder").begin_object();
        w.field("queued", static_cast<int64_t>(stats.queued)).field("in_flight", static_cast<int64_t>(stats.in_flight));
        w.field("done", static_cast<int64_t>(stats.done)).field("failed", static_cast<int64_t>(stats.failed));
        w.field("queue_full", static_cast<int64_t>(stats.queue_full));
        w.field("storage_failures", static_cast<int64_t>(stats.store_failures));
        w.field("waiting", static_cast<int64_t>(stats.waiting));
        w.key("last_error");
        stats.last_error.empty() ? w.null() : w.string(stats.last_error);
        w.key("last_error_at");
        stats.last_error_at_us == 0 ? w.null() : w.raw_timestamp(stats.last_error_at_us);
        w.end_object().end_object();
        return core::Outcome::ok(std::move(body));
    });
    return admin.push_outcome(L);
}

// memories.reembed{app=, dimensions=}: every live memory of the app pending
// again, for the configured model; with dimensions, a model of that vector
// length, which storage then takes (the old vectors serve recall until each
// is replaced: memory/memory_index.h).
int memories_reembed(lua_State* L) {
    const char* app = opt_name(L, 1, "app");
    if (app == nullptr) return luaL_error(L, "invalid_argument: memories.reembed{app=}: app is required");
    std::optional<int64_t> dimensions = opt_integer(L, 1, "dimensions");
    if (dimensions && (*dimensions < 1 || *dimensions > config::kMaxMemoryDimensions)) {
        // lua_pushfstring knows %I (a lua_Integer) and %d (an int), not printf's whole set.
        return luaL_error(L,
                          "invalid_argument: memories.reembed{dimensions=%I}: give the new model's vector length, "
                          "1 to %d",
                          static_cast<lua_Integer>(*dimensions), static_cast<int>(config::kMaxMemoryDimensions));
    }
    Admin& admin = Admin::of(L);
    admin.storage_with_memories([app = std::string(app), dimensions](const core::Env& env,
                                                                     const memory::MemoryLinks* links) {
        if (links == nullptr || links->pipeline == nullptr) {
            return core::Outcome::fail(core::invalid(
                "memories.reembed: no embedder is configured (memory.embedder.kind is none); set memory.embedder "
                "and restart mnemod"));
        }
        const uint32_t configured = env.config->memory.dimensions;
        if (dimensions && configured != 0 && configured != *dimensions) {
            return core::Outcome::fail(core::invalid(fmt::format(
                "memories.reembed: memory.dimensions is {} but dimensions={} was asked; set memory.dimensions to {} "
                "(or 0) for the new model and restart mnemod, then call memories.reembed again",
                configured, *dimensions, *dimensions)));
        }
        auto marked = links->pipeline->reembed(app, dimensions.value_or(0));
        if (auto* error = std::get_if<storage::StorageError>(&marked)) {
            return core::Outcome::fail(core::from_storage(*error));
        }
        return core::Outcome::ok(std::to_string(std::get<int64_t>(marked)));
    });
    return admin.push_outcome(L);
}

constexpr luaL_Reg kMemories[] = {{"count", memories_count},
                                  {"search", memories_search},
                                  {"queue", memories_queue},
                                  {"reembed", memories_reembed},
                                  {nullptr, nullptr}};

}  // namespace

void install_memory_api(lua_State* L) {
    register_table(L, "memories", kMemories);
}

}  // namespace mnemo::console
