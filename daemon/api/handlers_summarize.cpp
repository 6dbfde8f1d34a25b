// POST .../summarize: a summary now, through the summary queue (202), or waited for (wait=true: 200).
// A summarizer that fails (command exit status, timeout, Lua error) answers the waiting call 500
// `internal` with the reason; a full queue answers 429 `overloaded`.
#include "api/handlers.h"
#include "core/json_input.h"

#include <fmt/format.h>

namespace mnemo::api::handlers {
namespace {

namespace od = core::od;

std::optional<core::Error> read_flag(od::value& value, std::string_view name, bool& out) {
    core::Error error;
    auto flag = core::read_bool(value, name, &error);
    if (!flag) return error;
    out = *flag;
    return std::nullopt;
}

// From a checkpoint read: whether any event follows the latest summary, and that summary's JSON.
struct Checkpoint {
    bool has_events = false;
    std::string summary_json = "null";
};

Checkpoint read_checkpoint(std::string& body) {
    Checkpoint out;
    core::ParsedBody parsed;
    if (core::parse_body(body, parsed)) return out;
    od::object object;
    if (parsed.document.get_object().get(object)) return out;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value)) return out;
        if (key == "events") {
            od::array events;
            size_t count = 0;
            if (!value.get_array().get(events) && !events.count_elements().get(count)) out.has_events = count > 0;
        } else if (key == "summary") {
            if (auto raw = core::raw_value(value)) out.summary_json = std::string(*raw);
        }
    }
    return out;
}

void answer_outcome(Api& api, Call& call, scripting::SummaryOutcome&& outcome) {
    if (outcome.error) return api.fail(call, std::move(*outcome.error));
    api.reply(call, net::Response{200, {}, std::move(outcome.summary_json), "application/json"});
}

void enqueue(Api& api, CallPtr call, scripting::Scripting& scripting, const SummarizeInput& in) {
    scripting::Summaries::Done done;
    if (in.wait)
        done = [&api, call](scripting::SummaryOutcome&& outcome) { answer_outcome(api, *call, std::move(outcome)); };
    if (!scripting.enqueue_summary(scripting::SummaryJob{in.ref, in.filter_key, in.force, 0}, std::move(done))) {
        return api.fail(*call, core::Error{core::ErrorCode::Overloaded,
                                           fmt::format("the summary queue is full (summary.queue_size {}); retry later",
                                                       call->config->summary.queue_size),
                                           "{}"});
    }
    if (!in.wait) api.reply(*call, net::Response{202, {}, R"({"enqueued":true})", "application/json"});
}

void after_checkpoint(Api& api, CallPtr call, const SummarizeInput& in, core::Outcome&& read) {
    if (read.error) return api.fail(*call, std::move(*read.error));
    scripting::Scripting* scripting = api.scripting();
    if (scripting == nullptr)
        return api.fail(*call, core::Error{core::ErrorCode::Unavailable, "summaries are not running", "{}"});
    Checkpoint checkpoint = read_checkpoint(read.body);
    if (!checkpoint.has_events) {
        // A summary covers from the seq after the previous one's up_to_seq:
        // with every event covered, even force has no range to summarize.
        if (checkpoint.summary_json != "null" && in.force) {
            return api.fail(*call,
                            core::Error{core::ErrorCode::Conflict,
                                        fmt::format("session {}/{} of app {}: the latest summary already covers every "
                                                    "event, so there is nothing to summarize, even with force; append "
                                                    "events first (GET .../summaries shows the summary)",
                                                    in.ref.user, in.ref.id, in.ref.app),
                                        "{}"});
        }
        if (checkpoint.summary_json != "null") {
            return api.reply(*call, net::Response{200, {}, std::move(checkpoint.summary_json), "application/json"});
        }
        return api.fail(*call, core::not_found(fmt::format("session {}/{} of app {} has no events to summarize",
                                                           in.ref.user, in.ref.id, in.ref.app)));
    }
    enqueue(api, std::move(call), *scripting, in);
}

}  // namespace

std::optional<core::Error> decode_summarize(std::string& body, SummarizeInput& out) {
    if (body.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    core::ParsedBody parsed;
    if (auto error = core::parse_body(body, parsed)) return error;
    od::object object;
    if (parsed.document.get_object().get(object)) return core::invalid("request body must be a JSON object");
    core::KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return core::invalid("request body is not valid JSON");
        if (auto error = keys.check("", key)) return error;
        std::optional<core::Error> error;
        if (key == "filter_key") {
            core::Error type_error;
            auto text = core::read_string(value, "filter_key", &type_error);
            if (!text) return type_error;
            out.filter_key = std::string(*text);
        } else if (key == "force") {
            error = read_flag(value, "force", out.force);
        } else if (key == "wait") {
            error = read_flag(value, "wait", out.wait);
        }
        if (error) return error;
    }
    return std::nullopt;
}

void summarize(Api& api, CallPtr call) {
    auto in = std::make_shared<SummarizeInput>();
    in->ref = session_ref(*call);
    if (auto error = decode_summarize(call->request.body, *in)) return api.fail(*call, std::move(*error));
    scripting::Scripting* scripting = api.scripting();
    if (scripting == nullptr)
        return api.fail(*call, core::Error{core::ErrorCode::Unavailable, "summaries are not running", "{}"});
    if (auto error = scripting->can_summarize()) return api.fail(*call, std::move(*error));
    core::GetSessionInput read;
    read.ref = in->ref;
    read.num_recent_events = 1;
    read.from_checkpoint = true;
    read.filter_key = in->filter_key;
    api.executor().run(
        [env = api.env(*call), read = std::move(read)] { return core::get_session(env, read); },
        [&api, call, in](core::Outcome&& outcome) { after_checkpoint(api, call, *in, std::move(outcome)); });
}

}  // namespace mnemo::api::handlers
