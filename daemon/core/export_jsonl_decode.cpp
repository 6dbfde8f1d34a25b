// Reading export lines back into records (the format is described in
// export_jsonl.h). A line is first captured field by field (typed values,
// and raw values as their exact bytes), then assembled per kind, so fields
// may come in any order and each error names its field.
#include "core/export_jsonl.h"

#include "core/ids.h"
#include "core/json_input.h"
#include "core/memory_text.h"
#include "core/search_text.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <map>
#include <set>

namespace mnemo::core {
namespace {

struct Captured {
    enum class Type { String, Number, Bool, Null, Raw };
    Type type = Type::Null;
    std::string text;  // String: the unescaped text; Number and Raw: the exact bytes
    bool flag = false;
};
using Fields = std::map<std::string, Captured, std::less<>>;

// Fields whose value is stored JSON, kept as bytes whatever their type.
const std::set<std::string_view> kRawFields = {"content", "state_delta", "usage", "usage_sums", "tool_calls",
                                               "media",   "metadata",    "value", "payload"};

std::optional<std::string> capture(std::string_view key, od::value& value, Captured& out) {
    od::json_type type;
    if (value.type().get(type) != simdjson::SUCCESS) return "is not valid JSON";
    const bool raw = kRawFields.contains(key) || type == od::json_type::object || type == od::json_type::array;
    if (raw || type == od::json_type::number) {
        std::optional<std::string_view> bytes = raw_value(value);
        if (!bytes) return "is not valid JSON";
        out.type = raw ? Captured::Type::Raw : Captured::Type::Number;
        out.text.assign(*bytes);
    } else if (type == od::json_type::string) {
        std::string_view text;
        if (value.get_string().get(text) != simdjson::SUCCESS) return "is not a valid string";
        out.type = Captured::Type::String;
        out.text.assign(text);
    } else if (type == od::json_type::boolean) {
        if (value.get_bool().get(out.flag) != simdjson::SUCCESS) return "is not a valid boolean";
        out.type = Captured::Type::Bool;
    }
    return std::nullopt;
}

std::optional<std::string> capture_line(std::string& line, Fields& fields) {
    std::optional<std::string> field_error;
    auto error = for_each_field(line, [&](std::string_view key, od::value& value) -> std::optional<Error> {
        Captured captured;
        if (auto bad = capture(key, value, captured)) {
            field_error = "field \"" + std::string(key) + "\" " + *bad;
            return invalid(*field_error);
        }
        if (!fields.emplace(std::string(key), std::move(captured)).second) {
            field_error = "field \"" + std::string(key) + "\" appears twice";
            return invalid(*field_error);
        }
        return std::nullopt;
    });
    if (field_error) return field_error;
    if (error) return "not a JSON object: " + error->message;
    return std::nullopt;
}

// Typed access to the captured fields; the first problem is kept in error().
class FieldReader {
public:
    explicit FieldReader(const Fields& fields) : fields_(fields) {}

    std::string string(std::string_view name) {
        const Captured* c = find(name, true);
        if (c && c->type != Captured::Type::String) fail(name, "expected a string");
        return c && c->type == Captured::Type::String ? c->text : std::string();
    }
    storage::OptString optional_string(std::string_view name) {
        const Captured* c = find(name, false);
        if (!c || c->type == Captured::Type::Null) return std::nullopt;
        if (c->type != Captured::Type::String) fail(name, "expected a string or null");
        return c->text;
    }
    // Absent or null: fallback (a field newer exports carry).
    int64_t optional_integer(std::string_view name, int64_t fallback) {
        const Captured* c = find(name, false);
        if (!c || c->type == Captured::Type::Null) return fallback;
        return integer(name);
    }
    int64_t integer(std::string_view name) {
        const Captured* c = find(name, true);
        int64_t out = 0;
        if (!c) return 0;
        const char* end = c->text.data() + c->text.size();
        auto parsed = std::from_chars(c->text.data(), end, out);
        if (c->type != Captured::Type::Number || parsed.ec != std::errc() || parsed.ptr != end)
            fail(name, "expected an integer");
        return out;
    }
    bool boolean(std::string_view name) {
        const Captured* c = find(name, true);
        if (c && c->type != Captured::Type::Bool) fail(name, "expected true or false");
        return c && c->flag;
    }
    // A stored JSON value: embedded, or as the string field <name>_json.
    storage::OptString raw(std::string_view name) {
        if (const Captured* c = find(name, false)) return c->text;
        const std::string alias = std::string(name) + "_json";
        const Captured* c = find(alias, false);
        if (!c) return std::nullopt;
        if (c->type != Captured::Type::String)
            fail(alias, "expected a string holding JSON");
        else if (validate_json(c->text))
            fail(alias, "does not hold valid JSON");
        return c->text;
    }
    // A required field that is null (nullopt) or anything else, as its bytes to parse.
    storage::OptString null_or_value(std::string_view name) {
        const Captured* c = find(name, true);
        if (!c || c->type == Captured::Type::Null) return std::nullopt;
        return c->text;
    }
    std::string required_raw(std::string_view name) {
        storage::OptString value = raw(name);
        if (!value) fail(name, "missing");
        return value.value_or("null");
    }
    mnemo_usage usage(std::string_view name);

    // Every field read or known; one that is not is reported.
    void reject_unknown() {
        for (const auto& [name, value] : fields_)
            if (!used_.contains(name)) fail(name, "is not a field of this kind of record");
    }
    const std::optional<std::string>& error() const { return error_; }
    void reject(std::string_view name, std::string_view what) { fail(name, what); }
    // A rule's own error, already naming the field.
    void reject(const std::optional<Error>& error) {
        if (error && !error_) error_ = error->message;
    }

private:
    const Captured* find(std::string_view name, bool required) {
        used_.insert(std::string(name));
        auto it = fields_.find(name);
        if (it == fields_.end()) {
            if (required) fail(name, "missing");
            return nullptr;
        }
        return &it->second;
    }
    void fail(std::string_view name, std::string_view what) {
        if (!error_) error_ = "field \"" + std::string(name) + "\": " + std::string(what);
    }
    const Fields& fields_;
    std::set<std::string, std::less<>> used_;
    std::optional<std::string> error_;
};

mnemo_usage FieldReader::usage(std::string_view name) {
    mnemo_usage out{};
    const Captured* c = find(name, true);
    if (!c) return out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object object;
    if (parser.parse(c->text).get(object) != simdjson::SUCCESS) {
        fail(name, "expected an object of token counts and cost_usd");
        return out;
    }
    bool ok = object["input_tokens"].get(out.input_tokens) == simdjson::SUCCESS &&
              object["output_tokens"].get(out.output_tokens) == simdjson::SUCCESS &&
              object["cache_read_tokens"].get(out.cache_read_tokens) == simdjson::SUCCESS &&
              object["cache_write_tokens"].get(out.cache_write_tokens) == simdjson::SUCCESS &&
              object["total_tokens"].get(out.total_tokens) == simdjson::SUCCESS &&
              object["cost_usd"].get(out.cost_usd) == simdjson::SUCCESS;
    if (!ok)
        fail(name,
             "expected integer input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
             "total_tokens and a number cost_usd");
    return out;
}

void read_owner(FieldReader& f, JsonlRecord& r) {
    r.app = f.string("app");
    r.user = f.string("user");
    r.session_id = f.string("session_id");
}

void read_session(FieldReader& f, JsonlRecord& r) {
    storage::SessionRow& s = r.session;
    s.app = f.string("app");
    s.user = f.string("user");
    s.id = f.string("id");
    s.title = f.string("title");
    s.parent_id = f.optional_string("parent_id");
    s.metadata_json = f.required_raw("metadata");
    s.created_at_us = f.integer("created_at_us");
    s.updated_at_us = f.integer("updated_at_us");
    s.expires_at_us = f.integer("expires_at_us");
    s.ttl_us = f.integer("ttl_us");
    s.version = f.integer("version");
    s.event_count = f.integer("event_count");
    s.last_seq = f.integer("last_seq");
    s.extracted_seq = f.optional_integer("extracted_seq", 0);
    if (s.extracted_seq < 0 || s.extracted_seq > s.last_seq)
        f.reject("extracted_seq", "expected 0 up to last_seq (" + std::to_string(s.last_seq) + ")");
    s.usage = f.usage("usage");
}

void read_event(FieldReader& f, JsonlRecord& r) {
    read_owner(f, r);
    storage::EventRow& e = r.event;
    e.seq = f.integer("seq");
    e.id = f.string("id");
    r.id_from_client = f.boolean("id_from_client");
    e.invocation_id = f.optional_string("invocation_id");
    e.author = f.string("author");
    e.role = f.string("role");
    e.content_json = f.raw("content");
    e.state_delta_json = f.raw("state_delta");
    e.usage_json = f.raw("usage");
    r.event_usage = f.usage("usage_sums");
    e.tool_calls_json = f.raw("tool_calls");
    e.media_json = f.raw("media");
    e.metadata_json = f.raw("metadata");
    e.filter_key = f.string("filter_key");
    e.timestamp_us = f.integer("timestamp_us");
    r.search_text = search_text(e.content_json, e.tool_calls_json, e.media_json);
}

void read_state(FieldReader& f, JsonlRecord& r) {
    const std::string scope = f.string("scope");
    r.scope = scope == "app" ? MNEMO_SCOPE_APP : scope == "user" ? MNEMO_SCOPE_USER : MNEMO_SCOPE_SESSION;
    if (scope != "app" && scope != "user" && scope != "session")
        f.reject("scope", "expected \"app\", \"user\" or \"session\"");
    r.app = f.string("app");
    if (r.scope != MNEMO_SCOPE_APP) r.user = f.string("user");
    if (r.scope == MNEMO_SCOPE_SESSION) r.session_id = f.string("session_id");
    r.state_key = f.string("key");
    r.value_json = f.required_raw("value");
    if (r.scope != MNEMO_SCOPE_SESSION) r.expires_at_us = f.integer("expires_at_us");
}

void read_summary(FieldReader& f, JsonlRecord& r) {
    read_owner(f, r);
    storage::SummaryRow& s = r.summary;
    s.filter_key = f.string("filter_key");
    s.from_seq = f.integer("from_seq");
    s.up_to_seq = f.integer("up_to_seq");
    s.events_covered = f.integer("events_covered");
    s.text = f.string("text");
    s.created_at_us = f.integer("created_at_us");
    s.source = f.string("source");
}

void read_track(FieldReader& f, JsonlRecord& r) {
    read_owner(f, r);
    r.track = f.string("track");
    r.track_event.seq = f.integer("seq");
    r.track_event.payload_json = f.required_raw("payload");
    r.track_event.timestamp_us = f.integer("timestamp_us");
}

void read_lane(FieldReader& f, JsonlRecord& r) {
    storage::LaneRow& l = r.lane;
    l.app = f.string("app");
    l.lane = f.string("lane");
    l.user = f.string("user");
    l.session_id = f.string("session_id");
    l.platform = f.string("platform");
    l.chat_type = f.string("chat_type");
    l.created_at_us = f.integer("created_at_us");
    l.updated_at_us = f.integer("updated_at_us");
    l.suspended = f.boolean("suspended");
    l.resume_pending = f.boolean("resume_pending");
    l.resume_reason = f.optional_string("resume_reason");
    l.was_auto_reset = f.boolean("was_auto_reset");
    l.auto_reset_reason = f.optional_string("auto_reset_reason");
    l.reset_had_activity = f.boolean("reset_had_activity");
    l.is_fresh_reset = f.boolean("is_fresh_reset");
    l.restart_count = f.integer("restart_count");
    l.version = f.integer("version");
}

// ---- memory lines ----

simdjson::dom::element parse_raw(const std::string& json, bool* ok) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element element;
    *ok = parser.parse(json).get(element) == simdjson::SUCCESS;
    return element;
}

void read_source(FieldReader& f, MemoryLine& m) {
    const storage::OptString json = f.null_or_value("source");
    if (!json) return;
    bool ok = false;
    simdjson::dom::element source = parse_raw(*json, &ok);
    std::string_view session;
    int64_t seq = 0;
    if (!ok || source["session"].get(session) != simdjson::SUCCESS || source["seq"].get(seq) != simdjson::SUCCESS ||
        seq < 1) {
        f.reject("source", "expected null or {\"session\": a session id, \"seq\": 1 or more}");
        return;
    }
    if (!valid_name(session)) f.reject("source", "session id " + name_problem(session));
    m.source_session = std::string(session);
    m.source_seq = seq;
}

int embedding_status_of(std::string_view name) {
    for (int status = MNEMO_EMBEDDING_NONE; status <= MNEMO_EMBEDDING_FAILED; ++status)
        if (name == embedding_status_name(status)) return status;
    return -1;
}

// As the memory routes read an embedding: finite numbers that stay finite as floats.
void read_vector(FieldReader& f, MemoryLine& m) {
    const storage::OptString json = f.null_or_value("vector");
    if (!json) return;
    bool ok = false;
    simdjson::dom::element element = parse_raw(*json, &ok);
    simdjson::dom::array array;
    if (!ok || element.get(array) != simdjson::SUCCESS)
        return f.reject("vector", "expected an array of numbers or null");
    size_t index = 0;
    for (simdjson::dom::element value : array) {
        double number = 0;
        if (value.get(number) != simdjson::SUCCESS)
            return f.reject(fmt::format("vector[{}]", index), "expected a number");
        if (!core::finite_as_float(number))
            return f.reject(fmt::format("vector[{}]", index), fmt::format("{} is not a finite 32-bit number", number));
        m.vector.push_back(static_cast<float>(number));
        ++index;
    }
    if (m.vector.empty()) f.reject("vector", "the vector is empty; write null for a memory without one");
}

void read_embedding(FieldReader& f, MemoryLine& m) {
    const std::string status = f.string("embedding");
    m.embedding = embedding_status_of(status);
    if (m.embedding < 0) f.reject("embedding", "expected \"none\", \"pending\", \"ready\" or \"failed\"");
    m.embedding_model = f.optional_string("embedding_model");
    read_vector(f, m);
    if (m.embedding == MNEMO_EMBEDDING_READY && m.vector.empty())
        f.reject("vector", "a memory whose embedding is \"ready\" needs its vector");
    if (m.embedding == MNEMO_EMBEDDING_NONE && !m.vector.empty())
        f.reject("vector", "a memory whose embedding is \"none\" holds no vector; write null");
}

// The rules of a memory write (docs/memories.md Writing), as the memory routes apply them.
void check_memory(FieldReader& f, const JsonlRecord& r, const DecodeLimits& limits) {
    const MemoryLine& m = r.memory;
    if (!valid_name(r.app)) f.reject("app", "app id " + name_problem(r.app));
    if (!valid_name(r.user)) f.reject("user", "user id " + name_problem(r.user));
    f.reject(check_memory_id(m.id, "field \"id\""));
    f.reject(check_namespace(m.name_space, "field \"namespace\""));
    if (m.text.empty()) f.reject("text", "the text is empty; a memory needs 1 byte of text or more");
    if (limits.max_memory_text_bytes > 0 && m.text.size() > limits.max_memory_text_bytes)
        f.reject("text", fmt::format("{} bytes is over memory.max_text_bytes ({}) of this daemon; raise it to "
                                     "import this memory",
                                     m.text.size(), limits.max_memory_text_bytes));
    const size_t metadata_start = m.metadata_json.find_first_not_of(" \t\r\n");
    if (metadata_start == std::string::npos || m.metadata_json[metadata_start] != '{')
        f.reject("metadata", "expected an object");
    if (m.session_id && !valid_name(*m.session_id)) f.reject("session_id", "session id " + name_problem(*m.session_id));
    if (m.expires_at_us < 0) f.reject("expires_at_us", "expected 0 (never) or a time");
}

void read_memory(FieldReader& f, JsonlRecord& r, const DecodeLimits& limits) {
    r.app = f.string("app");
    r.user = f.string("user");
    MemoryLine& m = r.memory;
    m.id = f.string("id");
    m.name_space = f.string("namespace");
    m.text = f.string("text");
    m.metadata_json = f.required_raw("metadata");
    m.session_id = f.optional_string("session_id");
    read_source(f, m);
    read_embedding(f, m);
    m.created_at_us = f.integer("created_at_us");
    m.updated_at_us = f.integer("updated_at_us");
    m.expires_at_us = f.integer("expires_at_us");
    if (f.error()) return;
    check_memory(f, r, limits);
    m.folded_text = fold_memory_text(m.text);
}

int kind_of(std::string_view name) {
    for (int kind = MNEMO_RECORD_SESSION; kind <= MNEMO_RECORD_MEMORY; ++kind)
        if (name == record_kind_name(kind)) return kind;
    return 0;
}

void read_body(FieldReader& f, JsonlRecord& r, const DecodeLimits& limits) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return read_session(f, r);
        case MNEMO_RECORD_EVENT:
            return read_event(f, r);
        case MNEMO_RECORD_STATE:
            return read_state(f, r);
        case MNEMO_RECORD_SUMMARY:
            return read_summary(f, r);
        case MNEMO_RECORD_TRACK:
            return read_track(f, r);
        case MNEMO_RECORD_MEMORY:
            return read_memory(f, r, limits);
        default:
            return read_lane(f, r);
    }
}

}  // namespace

std::optional<std::string> decode_record(std::string& line, JsonlRecord& out, const DecodeLimits& limits) {
    Fields fields;
    if (auto error = capture_line(line, fields)) return error;
    FieldReader f(fields);
    const std::string kind = f.string("kind");
    if (f.error()) return f.error();
    out.kind = kind_of(kind);
    if (out.kind == 0)
        return "field \"kind\": \"" + kind + "\" is not one of session, event, state, summary, track, lane, memory";
    read_body(f, out, limits);
    f.reject_unknown();
    return f.error();
}

namespace {

using storage::opt_str;
using storage::str;

mnemo_session session_view(const storage::SessionRow& s) {
    mnemo_session v{};
    v.app = str(s.app);
    v.user = str(s.user);
    v.id = str(s.id);
    v.title = str(s.title);
    v.parent_id = opt_str(s.parent_id);
    v.metadata_json = str(s.metadata_json);
    v.created_at_us = s.created_at_us;
    v.updated_at_us = s.updated_at_us;
    v.expires_at_us = s.expires_at_us;
    v.ttl_us = s.ttl_us;
    v.version = s.version;
    v.event_count = s.event_count;
    v.last_seq = s.last_seq;
    v.usage = s.usage;
    v.extracted_seq = s.extracted_seq;
    return v;
}

mnemo_event event_view(const JsonlRecord& r) {
    const storage::EventRow& e = r.event;
    mnemo_event v{};
    v.seq = e.seq;
    v.id = str(e.id);
    v.id_from_client = r.id_from_client ? 1 : 0;
    v.invocation_id = opt_str(e.invocation_id);
    v.author = str(e.author);
    v.role = str(e.role);
    v.content_json = opt_str(e.content_json);
    v.state_delta_json = opt_str(e.state_delta_json);
    v.usage_json = opt_str(e.usage_json);
    v.tool_calls_json = opt_str(e.tool_calls_json);
    v.media_json = opt_str(e.media_json);
    v.metadata_json = opt_str(e.metadata_json);
    v.filter_key = str(e.filter_key);
    v.timestamp_us = e.timestamp_us;
    v.usage = r.event_usage;
    v.search_text = str(r.search_text);
    return v;
}

mnemo_summary summary_view(const storage::SummaryRow& s) {
    return mnemo_summary{str(s.filter_key), str(s.text),     s.from_seq,   s.up_to_seq,
                         s.events_covered,  s.created_at_us, str(s.source)};
}

mnemo_lane lane_view(const storage::LaneRow& l) {
    mnemo_lane v{};
    v.app = str(l.app);
    v.lane = str(l.lane);
    v.user = str(l.user);
    v.session_id = str(l.session_id);
    v.platform = str(l.platform);
    v.chat_type = str(l.chat_type);
    v.created_at_us = l.created_at_us;
    v.updated_at_us = l.updated_at_us;
    v.suspended = l.suspended ? 1 : 0;
    v.resume_pending = l.resume_pending ? 1 : 0;
    v.resume_reason = opt_str(l.resume_reason);
    v.was_auto_reset = l.was_auto_reset ? 1 : 0;
    v.auto_reset_reason = opt_str(l.auto_reset_reason);
    v.reset_had_activity = l.reset_had_activity ? 1 : 0;
    v.is_fresh_reset = l.is_fresh_reset ? 1 : 0;
    v.restart_count = l.restart_count;
    v.version = l.version;
    return v;
}

mnemo_memory memory_view(const JsonlRecord& r) {
    const MemoryLine& m = r.memory;
    mnemo_memory v{};
    v.app = str(r.app);
    v.user = str(r.user);
    v.id = str(m.id);
    v.name_space = str(m.name_space);
    v.text = str(m.text);
    v.metadata_json = str(m.metadata_json);
    v.session_id = opt_str(m.session_id);
    v.source_session = opt_str(m.source_session);
    v.source_seq = m.source_seq;
    v.embedding = m.embedding;
    v.embedding_model = opt_str(m.embedding_model);
    if (!m.vector.empty()) v.vector = mnemo_vector{m.vector.data(), m.vector.size()};
    v.created_at_us = m.created_at_us;
    v.updated_at_us = m.updated_at_us;
    v.expires_at_us = m.expires_at_us;
    return v;
}

}  // namespace

mnemo_record record_view(const JsonlRecord& r, RecordParts& parts) {
    mnemo_record v{};
    v.kind = r.kind;
    v.key = mnemo_key{str(r.app), str(r.user), str(r.session_id)};
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            parts.session = session_view(r.session);
            v.key = mnemo_key{parts.session.app, parts.session.user, parts.session.id};
            v.session = &parts.session;
            break;
        case MNEMO_RECORD_EVENT:
            parts.event = event_view(r);
            v.event = &parts.event;
            break;
        case MNEMO_RECORD_STATE:
            v.scope = r.scope;
            v.state_key = str(r.state_key);
            v.value_json = str(r.value_json);
            v.expires_at_us = r.expires_at_us;
            break;
        case MNEMO_RECORD_SUMMARY:
            parts.summary = summary_view(r.summary);
            v.summary = &parts.summary;
            break;
        case MNEMO_RECORD_TRACK:
            parts.track_event =
                mnemo_track_event{r.track_event.seq, str(r.track_event.payload_json), r.track_event.timestamp_us};
            v.track = str(r.track);
            v.track_event = &parts.track_event;
            break;
        case MNEMO_RECORD_MEMORY:
            parts.memory = memory_view(r);
            v.memory = &parts.memory;
            v.folded_text = str(r.memory.folded_text);
            break;
        default:
            parts.lane = lane_view(r.lane);
            v.lane = &parts.lane;
            break;
    }
    return v;
}

}  // namespace mnemo::core
