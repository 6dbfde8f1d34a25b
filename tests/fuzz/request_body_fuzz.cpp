// Fuzz target: the JSON body decoders of every route that takes one
// (sessions, events, rewrites, rewinds, state, summaries, summarize, tracks,
// lanes, memories, recall, and an extractor's answer). The first input byte
// picks the decoder, the rest is the body. Each decoder either refuses with
// a 4xx whose error body is valid UTF-8 JSON, or accepts: then what it
// accepted, written out again with the raw JSON values it keeps byte for
// byte, is valid UTF-8 JSON.
#include "api/api.h"
#include "api/handlers.h"
#include "core/event_input.h"
#include "core/json_input.h"
#include "core/json_writer.h"
#include "core/lanes.h"
#include "core/requests.h"
#include "core/utf8.h"
#include "fuzz_check.h"
#include "memory/memory_requests.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace mnemo;
using core::JsonWriter;

void require(bool condition, const char* what, std::string_view text) {
    fuzz::require(condition, "request_body", what, text);
}

// Writes what a decoder accepted as one JSON object.
class Echo {
public:
    Echo() : w_(out_) { w_.begin_object(); }
    Echo& text(std::string_view name, std::string_view value) {
        w_.field(name, value);
        return *this;
    }
    Echo& text_if(std::string_view name, const std::optional<std::string>& value) {
        if (value) w_.field(name, *value);
        return *this;
    }
    Echo& raw(std::string_view name, const std::optional<std::string>& json) {
        if (json) w_.raw_field(name, *json);
        return *this;
    }
    Echo& number(std::string_view name, std::optional<int64_t> value) {
        if (value) w_.field(name, *value);
        return *this;
    }
    Echo& floats(std::string_view name, const std::optional<std::vector<float>>& values) {
        if (!values) return *this;
        w_.key(name).begin_array();
        for (float value : *values) w_.number(value);
        w_.end_array();
        return *this;
    }
    Echo& delta(std::string_view name, const core::DecodedDelta& delta) {
        w_.key(name).begin_array();
        for (const core::StateChange& change : delta.changes) {
            w_.begin_object().field("scope", int64_t{change.scope}).field("key", change.key);
            if (change.value_json) w_.raw_field("value", *change.value_json);
            w_.end_object();
        }
        w_.end_array();
        return raw(std::string(name) + "_stored", delta.stored_json);
    }
    Echo& events(const std::vector<core::EventInput>& events) {
        w_.key("events").begin_array();
        for (core::EventInput event : events) {
            core::complete_event(event, 1700000000000000);
            Echo one;
            one.text("id", event.id).text_if("invocation_id", event.invocation_id).text("author", event.author);
            one.text("role", event.role).text("filter_key", event.filter_key).text("search_text", event.search_text);
            one.raw("content", event.content_json)
                .raw("usage", event.usage_json)
                .raw("tool_calls", event.tool_calls_json);
            one.raw("media", event.media_json).raw("metadata", event.metadata_json).number("ts", event.timestamp_us);
            one.delta("state_delta", event.delta);
            w_.raw(one.done());
        }
        w_.end_array();
        return *this;
    }
    Echo& memory(const memory::MemoryItemInput& item) {
        Echo one;
        one.text_if("id", item.id).text("text", item.text).text_if("namespace", item.name_space);
        one.raw("metadata", item.metadata_json)
            .text_if("session_id", item.session_id)
            .floats("embedding", item.embedding);
        one.text_if("embedding_model", item.embedding_model).number("ttl_seconds", item.ttl_seconds);
        w_.raw(one.done());
        return *this;
    }
    Echo& memories(const std::vector<memory::MemoryItemInput>& items) {
        w_.key("memories").begin_array();
        for (const auto& item : items) memory(item);
        w_.end_array();
        return *this;
    }
    std::string done() {
        w_.end_object();
        return std::move(out_);
    }

private:
    std::string out_;
    JsonWriter w_;
};

using Decoded = std::optional<core::Error>;

// Runs decoder `which` on `body`; on success fills `echo`.
Decoded decode(unsigned which, std::string& body, Echo& echo) {
    config::LimitsConfig limits;
    limits.max_event_bytes = 512;
    limits.max_batch_events = 8;
    memory::MemoryRequestLimits memory_limits{8, 64};
    Decoded error;
    switch (which) {
        case 0: {
            core::CreateSessionInput in;
            if (!(error = core::decode_create_session(body, in))) {
                echo.text_if("id", in.id).text("title", in.title).text_if("parent_id", in.parent_id);
                echo.raw("metadata", in.metadata_json).number("ttl_seconds", in.ttl_seconds);
            }
            return error;
        }
        case 1: {
            core::AppendInput in;
            if (!(error = core::decode_append(body, limits, in)))
                echo.events(in.events).number("v", in.expected_version);
            return error;
        }
        case 2: {
            core::RewriteInput in;
            if (!(error = core::decode_rewrite(body, limits, in)))
                echo.events(in.events).number("v", in.expected_version);
            return error;
        }
        case 3: {
            core::RewindInput in;
            if (!(error = core::decode_rewind(body, in)))
                echo.number("turns", in.turns).number("v", in.expected_version);
            return error;
        }
        case 4:
        case 5:
        case 6: {
            core::PatchStateInput in;
            in.scope = which == 4 ? MNEMO_SCOPE_SESSION : which == 5 ? MNEMO_SCOPE_APP : MNEMO_SCOPE_USER;
            if (!(error = core::decode_patch_state(body, in))) echo.delta("state_delta", in.delta);
            return error;
        }
        case 7: {
            core::PostSummaryInput in;
            if (!(error = core::decode_post_summary(body, in))) {
                echo.text("filter_key", in.filter_key).text("text", in.text).number("up_to_seq", in.up_to_seq);
            }
            return error;
        }
        case 8: {
            core::TrackAppendInput in;
            if (!(error = core::decode_track_append(body, in))) {
                echo.text("track", in.track).raw("payload", in.payload_json).number("ts", in.timestamp_us);
            }
            return error;
        }
        case 9: {
            core::ResolveLaneInput in;
            if (!(error = core::decode_resolve_lane(body, in))) {
                echo.text("user", in.user).text_if("platform", in.platform).text_if("chat_type", in.chat_type);
                echo.raw("metadata", in.metadata_json);
            }
            return error;
        }
        case 10: {
            std::string session_id;
            if (!(error = core::decode_switch_lane(body, session_id))) echo.text("session_id", session_id);
            return error;
        }
        case 11: {
            std::string reason;
            if (!(error = core::decode_resume_pending(body, reason))) echo.text("reason", reason);
            return error;
        }
        case 12:
            return core::decode_turn_complete(body);
        case 13: {
            api::handlers::SummarizeInput in;
            if (!(error = api::handlers::decode_summarize(body, in))) echo.text("filter_key", in.filter_key);
            return error;
        }
        case 14: {
            memory::MemoryWriteInput in;
            if (!(error = memory::decode_memory_write(body, memory_limits, in))) echo.memories(in.items);
            return error;
        }
        case 15: {
            memory::MemoryPatchInput in;
            if (!(error = memory::decode_memory_patch(body, memory_limits, in))) {
                echo.text_if("text", in.text).text_if("namespace", in.name_space).raw("metadata", in.metadata_json);
                echo.floats("embedding", in.embedding).text_if("embedding_model", in.embedding_model);
                echo.number("ttl_seconds", in.ttl_seconds);
            }
            return error;
        }
        case 16: {
            memory::RecallInput in;
            if (!(error = memory::decode_recall(body, in))) {
                echo.text_if("query", in.query).floats("embedding", in.embedding).text_if("user", in.user);
                echo.text_if("namespace", in.name_space).text_if("session_id", in.session_id);
                echo.number("after", in.created_after_us).number("before", in.created_before_us);
                echo.number("limit", in.limit).text("mode", memory::mode_name(in.mode));
                for (const auto& condition : in.metadata) echo.raw(condition.key, condition.value_json);
                require(in.limit >= 1 && in.limit <= memory::kMaxRecallLimit, "recall limit out of bounds", body);
            }
            return error;
        }
        default: {
            memory::ExtractedItems out;
            if (!(error = memory::decode_extracted(body, memory_limits, out))) {
                echo.memories(out.items);
                for (const auto& [index, why] : out.skipped) echo.text(std::to_string(index), why);
            }
            return error;
        }
    }
}

constexpr unsigned kDecoders = 18;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    unsigned which = data[0] % kDecoders;
    std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::string input = body;
    Echo echo;
    if (auto error = decode(which, body, echo)) {
        int status = api::http_status(error->code);
        require(status >= 400 && status < 500, "a refusal that is not a 4xx", input);
        std::string answer = api::error_body(core::code_name(error->code), error->message, error->details_json);
        require(core::is_valid_utf8(answer) && !core::validate_json(answer), "an error body is not UTF-8 JSON", answer);
        return 0;
    }
    std::string accepted = echo.done();
    require(core::is_valid_utf8(accepted) && !core::validate_json(accepted), "what was accepted is not UTF-8 JSON",
            input + "\n" + accepted);
    return 0;
}
