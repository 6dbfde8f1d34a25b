#include "scripting/extract_job.h"

#include "core/json_writer.h"
#include "core/render.h"
#include "core/service_util.h"
#include "observability/log.h"
#include "process/child_process.h"
#include "scripting/command_summarizer.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"

#include <fmt/format.h>

namespace mnemo::scripting {
namespace {

// What the extractor is given.
struct Batch {
    std::string session;   // the Session object
    std::string events;    // the Event objects, a JSON array
    int64_t cursor = 0;    // extracted_seq when read
    int64_t last_seq = 0;  // the highest seq given
    int64_t count = 0;
    bool more = false;
};

std::optional<std::string> read_session(const core::Env& env, const ExtractJob& job, int with_events, int64_t after_seq,
                                        storage::Collector& collector) {
    mnemo_session_get_req req{};
    req.key = core::key_of(job.ref);
    req.now_us = env.clock.now_us();
    req.with_events = with_events;
    req.filter.after_seq = after_seq;
    req.filter.limit = kMaxEventsPerJob;
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().session_get(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return "reading the session failed: " + failure->message;
    }
    if (collector.result().sessions.empty()) return std::string("storage returned no session");
    return std::nullopt;
}

// The cursor first, then the events after it (a second read: the cursor decides the filter).
std::optional<std::string> read_batch(const core::Env& env, const ExtractJob& job, Batch& out) {
    storage::Collector head;
    if (auto error = read_session(env, job, 0, 0, head)) return error;
    out.cursor = head.result().sessions.front().extracted_seq;
    storage::Collector rows;
    if (auto error = read_session(env, job, 1, out.cursor, rows)) return error;
    const auto& result = rows.result();
    core::JsonWriter session(out.session);
    core::write_session(session, result.sessions.front(), nullptr);
    core::JsonWriter events(out.events);
    events.begin_array();
    for (const auto& event : result.events) {
        core::write_event(events, event);
        out.last_seq = std::max(out.last_seq, event.seq);
        ++out.count;
    }
    events.end_array();
    out.more = result.has_more;
    return std::nullopt;
}

struct LuaExtract {
    const Batch* batch = nullptr;
    std::string items = "[]";
    const char* returned_type = "nil";
    std::optional<std::string> encode_error;
};

int call_extract(lua_State* L, LuaExtract& run) {
    lua_pushcfunction(L, [](lua_State* state) {
        lua_newtable(state);  // the end of the chain: nothing extracted
        return 1;
    });
    push_json(L, run.batch->session);
    push_json(L, run.batch->events);
    call_chain(L, Hook::Extract, 2, 1);
    run.returned_type = luaL_typename(L, -1);
    if (!lua_istable(L, -1)) return 0;
    lua_pushnil(L);
    if (lua_next(L, -2) == 0) return 0;  // {}: no items (an empty table encodes as an object)
    lua_pop(L, 2);
    run.items.clear();
    if (const char* error = encode_json(L, -1, run.items)) run.encode_error = error;
    return 0;
}

std::optional<std::string> extract_with_lua(ScriptState* state, const Batch& batch, std::string& items) {
    if (state == nullptr || !state->has(Hook::Extract)) {
        return "no extractor registered: memory.extractor is lua and no script calls mnemo.on(\"extract\", fn); "
               "add a hook script or use extractor: command";
    }
    LuaExtract run;
    run.batch = &batch;
    if (auto error = state->bounded([&run](lua_State* L) { return call_extract(L, run); }))
        return "extract hook failed: " + *error;
    if (std::string_view(run.returned_type) != "table")
        return fmt::format("the extract hook returned a {}; it must return a list of {{text=...}} tables",
                           run.returned_type);
    if (run.encode_error) return "the extract hook's answer is not JSON: " + *run.encode_error;
    items = std::move(run.items);
    return std::nullopt;
}

std::optional<std::string> extract_with_command(const config::Config& config, const Batch& batch,
                                                const std::atomic<bool>& stopping, std::string& items) {
    const auto& argv = config.memory.extract_command;
    if (argv.empty())
        return std::string("memory.extractor is command but memory.extract_command is empty; set the argv to run");
    std::string input;
    core::JsonWriter w(input);
    w.begin_object().raw_field("session", batch.session).raw_field("events", batch.events).end_object();
    // The command may call a model like a summarizer does: it gets summary.timeout.
    process::CommandSpec spec{
        argv, input, config.summary.timeout_us, kMaxOutputBytes, "memory.extract_command", "summary.timeout"};
    process::CommandResult result = process::run_command(spec, stopping);
    if (result.error) return std::move(result.error);
    items = trim(result.output);
    return std::nullopt;
}

// Writes the items that keep the rules; the others are logged and counted.
std::optional<std::string> write_items(const JobContext& context, const memory::MemoryLinks* links,
                                       const ExtractJob& job, std::string& answer, ExtractOutcome& outcome) {
    const config::Config& config = *context.env.config;
    memory::ExtractedItems extracted;
    if (auto error = memory::decode_extracted(answer, memory::request_limits(config, job.ref.app), extracted))
        return "the extractor's answer is unreadable: " + error->message;
    for (const auto& [index, reason] : extracted.skipped) {
        log::warn("extraction of session {}/{}/{}: item {} skipped: {}", job.ref.app, job.ref.user, job.ref.id, index,
                  reason);
    }
    outcome.skipped = extracted.skipped.size();
    if (extracted.items.empty()) return std::nullopt;
    memory::WriteMemoriesInput in{job.ref.app, job.ref.user, {}};
    for (auto& item : extracted.items) {
        item.session_id = job.ref.id;
        in.write.items.push_back(std::move(item));
    }
    core::Outcome written = memory::write_memories(memory::memory_env(context.env, links), in);
    if (written.error) return "writing the extracted memories failed: " + written.error->message;
    outcome.written = in.write.items.size();
    return std::nullopt;
}

std::optional<std::string> advance(const core::Env& env, const ExtractJob& job, const Batch& batch) {
    mnemo_extracted_req req{core::key_of(job.ref), env.clock.now_us(), batch.cursor, batch.last_seq};
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().session_extracted(env.backend.handle(), &req, nullptr, err);
        })) {
        return "moving the extraction cursor failed: " + failure->message;
    }
    return std::nullopt;
}

std::optional<std::string> run(const ExtractJob& job, JobContext& context, const memory::MemoryLinks* links,
                               ExtractOutcome& outcome) {
    Batch batch;
    if (auto error = read_batch(context.env, job, batch)) return error;
    if (batch.count == 0) return std::nullopt;
    outcome.events = batch.count;
    outcome.more = batch.more;
    const config::Config& config = *context.env.config;
    std::string answer;
    auto error = config.memory.extractor == config::MemoryConfig::Extractor::Lua
                     ? extract_with_lua(context.lua, batch, answer)
                     : extract_with_command(config, batch, context.stopping, answer);
    if (!error) error = write_items(context, links, job, answer, outcome);
    if (!error) error = advance(context.env, job, batch);
    return error;
}

}  // namespace

WorkerKind extract_worker_kind() {
    return WorkerKind{"extraction", [](const config::Config& config) -> std::optional<Bounds> {
                          if (config.memory.extractor != config::MemoryConfig::Extractor::Lua) return std::nullopt;
                          return bounds_of(config.scripts);
                      }};
}

ExtractOutcome run_extract_job(const ExtractJob& job, JobContext& context, const memory::MemoryLinks* links) {
    ExtractOutcome outcome;
    outcome.ref = job.ref;
    outcome.error = run(job, context, links, outcome);
    if (outcome.error) {
        log::warn("extraction of session {}/{}/{} failed, its cursor stays for the next trigger: {}", job.ref.app,
                  job.ref.user, job.ref.id, *outcome.error);
        outcome.more = false;
    }
    return outcome;
}

}  // namespace mnemo::scripting
