#include "scripting/summary_job.h"

#include "core/json_input.h"
#include "core/json_writer.h"
#include "core/render.h"
#include "core/service_util.h"
#include "observability/log.h"
#include "scripting/command_summarizer.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"

#include <fmt/format.h>

namespace mnemo::scripting {
namespace {

namespace od = core::od;

// What the summarizer is given, as stored bytes.
struct Checkpoint {
    std::string session;
    std::string events = "[";  // a JSON array once read
    int64_t event_count = 0;
    int64_t last_seq = 0;
    std::optional<std::string> summary;  // the latest Summary object
    std::optional<std::string> previous_text;
};

bool read_summary(od::value& value, Checkpoint& out) {
    if (core::is_null(value)) return true;
    auto raw = core::raw_value(value);
    if (!raw) return false;
    out.summary = std::string(*raw);
    std::string_view text;
    if (value["text"].get_string().get(text)) return false;
    out.previous_text = std::string(text);
    return true;
}

bool read_events(od::value& value, Checkpoint& out) {
    od::array array;
    if (value.get_array().get(array)) return false;
    for (auto element : array) {
        od::value event;
        if (element.get(event)) return false;
        auto raw = core::raw_value(event);
        int64_t seq = 0;
        if (!raw || event["seq"].get_int64().get(seq)) return false;
        if (out.event_count++ > 0) out.events += ',';
        out.events += *raw;
        out.last_seq = std::max(out.last_seq, seq);
    }
    out.events += ']';
    return true;
}

bool read_checkpoint(std::string& body, Checkpoint& out) {
    core::ParsedBody parsed;
    if (core::parse_body(body, parsed)) return false;
    od::object object;
    if (parsed.document.get_object().get(object)) return false;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value)) return false;
        if (key == "session") {
            auto raw = core::raw_value(value);
            if (!raw) return false;
            out.session = std::string(*raw);
        } else if (key == "events" ? !read_events(value, out) : key == "summary" && !read_summary(value, out)) {
            return false;
        }
    }
    return true;
}

core::Error internal(std::string message) {
    return core::Error{core::ErrorCode::Internal, std::move(message), "{}"};
}

struct LuaSummary {
    const Checkpoint* checkpoint;
    std::optional<std::string> text;
    const char* returned_type = "nil";
};

int call_summarize(lua_State* L, LuaSummary& run) {
    lua_pushcfunction(L, [](lua_State*) { return 0; });
    push_json(L, run.checkpoint->session);
    push_json(L, run.checkpoint->events);
    if (run.checkpoint->previous_text) {
        lua_pushlstring(L, run.checkpoint->previous_text->data(), run.checkpoint->previous_text->size());
    } else {
        lua_pushnil(L);
    }
    call_chain(L, Hook::Summarize, 3, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t length = 0;
        const char* text = lua_tolstring(L, -1, &length);
        run.text = std::string(text, length);
    }
    run.returned_type = luaL_typename(L, -1);
    return 0;
}

std::optional<core::Error> summarize_with_lua(ScriptState* state, const Checkpoint& checkpoint, std::string& text) {
    if (state == nullptr || !state->has(Hook::Summarize)) {
        return core::Error{core::ErrorCode::Unavailable,
                           "no summarizer registered: summary.summarizer is lua and no "
                           "script calls mnemo.on(\"summarize\", fn)",
                           "{}"};
    }
    LuaSummary run{&checkpoint, std::nullopt};
    if (auto error = state->bounded([&run](lua_State* L) { return call_summarize(L, run); })) {
        return internal("summarize hook failed: " + *error);
    }
    if (!run.text)
        return internal(fmt::format("the summarize hook returned a {}; it must return the text", run.returned_type));
    text = std::move(*run.text);
    return std::nullopt;
}

std::optional<core::Error> summarize_with_command(const config::Config& config, const Checkpoint& checkpoint,
                                                  const std::atomic<bool>& stopping, std::string& text) {
    std::string input;
    core::JsonWriter w(input);
    w.begin_object().raw_field("session", checkpoint.session).raw_field("events", checkpoint.events).key("previous");
    if (checkpoint.previous_text) {
        w.string(*checkpoint.previous_text);
    } else {
        w.null();
    }
    w.end_object();
    auto outcome = run_summary_command(config.summary.command, input, config.summary.timeout_us, stopping);
    if (outcome.error) return internal(*outcome.error);
    if (outcome.text.empty())
        return internal("summary.command '" + config.summary.command.front() + "' printed no text");
    text = std::move(outcome.text);
    return std::nullopt;
}

SummaryOutcome store(const core::Env& env, const SummaryJob& job, const Checkpoint& checkpoint, const std::string& text,
                     std::string_view source) {
    mnemo_summary_put_req req{};
    req.key = core::key_of(job.ref);
    req.now_us = env.clock.now_us();
    req.filter_key = storage::str(job.filter_key);
    req.text = storage::str(text);
    req.up_to_seq = checkpoint.last_seq;
    req.source = storage::str(source);
    req.events_covered = checkpoint.event_count;
    storage::Collector collector;
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().summary_put(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return SummaryOutcome{job.ticket, core::from_storage(*failure), {}};
    }
    if (collector.result().summaries.empty())
        return SummaryOutcome{job.ticket, internal("storage returned no summary"), {}};
    SummaryOutcome outcome{job.ticket, std::nullopt, {}};
    core::JsonWriter w(outcome.summary_json);
    core::write_summary(w, collector.result().summaries.front());
    return outcome;
}

// Nothing after the checkpoint: the latest summary stands.
SummaryOutcome nothing_new(const SummaryJob& job, const Checkpoint& checkpoint) {
    if (checkpoint.summary) return SummaryOutcome{job.ticket, std::nullopt, *checkpoint.summary};
    return SummaryOutcome{job.ticket,
                          core::not_found(fmt::format("session {}/{} of app {} has no events to summarize",
                                                      job.ref.user, job.ref.id, job.ref.app)),
                          {}};
}

}  // namespace

WorkerKind summary_worker_kind() {
    return WorkerKind{"summary", [](const config::Config& config) -> std::optional<Bounds> {
                          if (config.summary.summarizer != config::SummaryConfig::Summarizer::Lua) return std::nullopt;
                          Bounds bounds = bounds_of(config.scripts);
                          bounds.timeout_us = config.summary.timeout_us;
                          return bounds;
                      }};
}

SummaryOutcome run_summary_job(const SummaryJob& job, JobContext& context) {
    core::GetSessionInput read;
    read.ref = job.ref;
    read.from_checkpoint = true;
    read.filter_key = job.filter_key;
    core::Outcome answer = core::get_session(context.env, read);
    if (answer.error) return SummaryOutcome{job.ticket, std::move(answer.error), {}};
    Checkpoint checkpoint;
    if (!read_checkpoint(answer.body, checkpoint))
        return SummaryOutcome{job.ticket, internal("unreadable session answer"), {}};
    if (checkpoint.event_count == 0) return nothing_new(job, checkpoint);
    const config::Config& config = *context.env.config;
    bool lua = config.summary.summarizer == config::SummaryConfig::Summarizer::Lua;
    std::string text;
    auto error = lua ? summarize_with_lua(context.lua, checkpoint, text)
                     : summarize_with_command(config, checkpoint, context.stopping, text);
    if (error) {
        log::warn("summary of session {}/{}/{} (filter key '{}') not stored: {}", job.ref.app, job.ref.user, job.ref.id,
                  job.filter_key, error->message);
        return SummaryOutcome{job.ticket, std::move(error), {}};
    }
    return store(context.env, job, checkpoint, text, lua ? "lua" : "command");
}

}  // namespace mnemo::scripting
