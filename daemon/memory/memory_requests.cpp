#include "memory/memory_requests.h"

#include "core/ids.h"
#include "core/json_input.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <unordered_set>

namespace mnemo::memory {
namespace {

using core::Error;
using core::invalid;
namespace od = simdjson::ondemand;

// Reads an optional string field; null counts as absent.
std::optional<Error> read_optional_string(od::value& v, std::string_view path, std::optional<std::string>& out) {
    if (core::is_null(v)) return std::nullopt;
    Error error;
    auto text = core::read_string(v, path, &error);
    if (!text) return error;
    out = std::string(*text);
    return std::nullopt;
}

std::optional<Error> read_metadata(od::value& v, std::string_view path, std::optional<std::string>& out) {
    if (core::is_null(v)) return std::nullopt;
    od::json_type type;
    if (v.type().get(type) || type != od::json_type::object) return core::type_error(path, "an object");
    out = std::string(core::raw_value(v).value_or("{}"));
    return std::nullopt;
}

// A vector of finite numbers that stay finite as floats; its length is
// checked against the app's dimension by the service.
std::optional<Error> read_vector(od::value& v, std::string_view path, std::optional<std::vector<float>>& out) {
    if (core::is_null(v)) return std::nullopt;
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) return core::type_error(path, "an array of numbers");
    std::vector<float> vector;
    size_t index = 0;
    for (auto element : array) {
        double number;
        if (element.get_double().get(number) != simdjson::SUCCESS)
            return core::type_error(fmt::format("{}[{}]", path, index), "a number");
        if (!core::finite_as_float(number))
            return invalid(fmt::format("{}[{}]: {} is not a finite 32-bit number", path, index, number));
        vector.push_back(static_cast<float>(number));
        ++index;
    }
    if (vector.empty()) return invalid(fmt::format("{}: the vector is empty; send its numbers or leave it out", path));
    out = std::move(vector);
    return std::nullopt;
}

std::optional<Error> check_text(std::string_view text, std::string_view path, const MemoryRequestLimits& limits) {
    if (text.empty()) return invalid(fmt::format("{}: the text is empty; a memory needs 1 byte of text or more", path));
    if (text.size() > limits.max_text_bytes) {
        return invalid(
            fmt::format("{}: {} bytes is over memory.max_text_bytes ({})", path, text.size(), limits.max_text_bytes));
    }
    return std::nullopt;
}

// The fields a write item and a patch share, each checked as it is read.
struct CommonFields {
    std::optional<std::string>* text = nullptr;
    std::optional<std::string>* name_space = nullptr;
    std::optional<std::string>* metadata_json = nullptr;
    std::optional<std::vector<float>>* embedding = nullptr;
    std::optional<std::string>* embedding_model = nullptr;
    std::optional<int64_t>* ttl_seconds = nullptr;
};

// nullopt with *handled false: not one of the shared fields.
std::optional<Error> read_common_field(std::string_view key, od::value& v, std::string_view prefix,
                                       const MemoryRequestLimits& limits, CommonFields fields, bool* handled) {
    *handled = true;
    auto path = [&](std::string_view name) {
        return prefix.empty() ? std::string(name) : fmt::format("{}.{}", prefix, name);
    };
    if (key == "text") {
        if (auto error = read_optional_string(v, path("text"), *fields.text)) return error;
        return *fields.text ? check_text(**fields.text, path("text"), limits) : std::nullopt;
    }
    if (key == "namespace") {
        if (auto error = read_optional_string(v, path("namespace"), *fields.name_space)) return error;
        return *fields.name_space ? check_namespace(**fields.name_space, path("namespace")) : std::nullopt;
    }
    if (key == "metadata") return read_metadata(v, path("metadata"), *fields.metadata_json);
    if (key == "embedding") return read_vector(v, path("embedding"), *fields.embedding);
    if (key == "embedding_model") return read_optional_string(v, path("embedding_model"), *fields.embedding_model);
    if (key == "ttl_seconds") return core::read_ttl_seconds(v, path("ttl_seconds"), *fields.ttl_seconds);
    *handled = false;
    return std::nullopt;
}

std::optional<Error> decode_item(od::value& item, size_t index, const MemoryRequestLimits& limits,
                                 MemoryItemInput& out) {
    std::string prefix = fmt::format("memories[{}]", index);
    od::object object;
    if (item.get_object().get(object) != simdjson::SUCCESS) return core::type_error(prefix, "an object");
    std::optional<std::string> text;
    CommonFields fields{&text,          &out.name_space,      &out.metadata_json,
                        &out.embedding, &out.embedding_model, &out.ttl_seconds};
    core::KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        od::value v;
        if (field.unescaped_key().get(key) || field.value().get(v)) return core::type_error(prefix, "an object");
        if (auto error = keys.check(prefix, key)) return error;
        bool handled = false;
        if (auto error = read_common_field(key, v, prefix, limits, fields, &handled)) return error;
        if (handled) continue;
        if (key == "id") {
            if (auto error = read_optional_string(v, prefix + ".id", out.id)) return error;
            if (out.id) {
                if (auto error = check_memory_id(*out.id, prefix + ".id")) return error;
            }
        } else if (key == "session_id") {
            if (auto error = read_optional_string(v, prefix + ".session_id", out.session_id)) return error;
            if (out.session_id && !core::valid_name(*out.session_id))
                return invalid(
                    fmt::format("{}.session_id: session id {}", prefix, core::name_problem(*out.session_id)));
        }
    }
    if (!text) return invalid(fmt::format("{}.text: required; every memory needs its text", prefix));
    out.text = std::move(*text);
    return std::nullopt;
}

std::optional<Error> decode_items(od::value& v, const MemoryRequestLimits& limits, std::vector<MemoryItemInput>& out) {
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) return core::type_error("memories", "an array of memories");
    size_t index = 0;
    for (auto element : array) {
        if (index >= limits.max_batch) {
            return invalid(fmt::format("memories: more than limits.max_batch_events ({}) memories in one batch",
                                       limits.max_batch));
        }
        od::value item;
        if (element.get(item) != simdjson::SUCCESS) return core::type_error("memories", "an array of memories");
        MemoryItemInput memory;
        if (auto error = decode_item(item, index, limits, memory)) return error;
        out.push_back(std::move(memory));
        ++index;
    }
    if (out.empty()) return invalid("memories: the list is empty; send at least one memory");
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i].id && !seen.insert(*out[i].id).second)
            return invalid(fmt::format("memories[{}].id: '{}' appears twice in this batch", i, *out[i].id));
    }
    return std::nullopt;
}

std::optional<Error> decode_metadata_filter(od::value& v, std::vector<MetadataCondition>& out) {
    if (core::is_null(v)) return std::nullopt;
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS)
        return core::type_error("metadata", "an object of {key: scalar}");
    core::KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return core::type_error("metadata", "an object of {key: scalar}");
        if (auto error = keys.check("metadata", key)) return error;
        std::string path = fmt::format("metadata.{}", key);
        od::json_type type;
        if (value.type().get(type) != simdjson::SUCCESS) return core::type_error(path, "a scalar");
        if (type == od::json_type::object || type == od::json_type::array)
            return core::type_error(path, "a string, number, boolean or null (filters compare scalars)");
        out.push_back(MetadataCondition{std::string(key), std::string(core::raw_value(value).value_or("null"))});
    }
    return std::nullopt;
}

std::optional<Error> read_limit(int64_t value, std::string_view path, int64_t& out) {
    if (value <= 0) return invalid(fmt::format("{}: must be 1 or more", path));
    out = std::min(value, kMaxRecallLimit);
    return std::nullopt;
}

std::optional<Error> read_match(std::string_view name, bool& match_all) {
    if (name != "any" && name != "all")
        return invalid(fmt::format("match: '{}' is not one of any, all", name));
    match_all = name == "all";
    return std::nullopt;
}

std::optional<Error> read_recall_field(std::string_view key, od::value& v, RecallInput& out) {
    Error error;
    if (key == "query") return read_optional_string(v, "query", out.query);
    if (key == "embedding") return read_vector(v, "embedding", out.embedding);
    if (key == "user") {
        if (auto failed = read_optional_string(v, "user", out.user)) return failed;
        if (out.user && !core::valid_name(*out.user))
            return invalid(fmt::format("user: user id {}", core::name_problem(*out.user)));
        return std::nullopt;
    }
    if (key == "namespace") {
        if (auto failed = read_optional_string(v, "namespace", out.name_space)) return failed;
        return out.name_space ? check_namespace(*out.name_space, "namespace") : std::nullopt;
    }
    if (key == "session_id") {
        if (auto failed = read_optional_string(v, "session_id", out.session_id)) return failed;
        if (out.session_id && !core::valid_name(*out.session_id))
            return invalid(fmt::format("session_id: session id {}", core::name_problem(*out.session_id)));
        return std::nullopt;
    }
    if (key == "metadata") return decode_metadata_filter(v, out.metadata);
    if (key == "created_after" || key == "created_before") {
        if (core::is_null(v)) return std::nullopt;
        auto at = core::read_timestamp(v, key, &error);
        if (!at) return error;
        (key == "created_after" ? out.created_after_us : out.created_before_us) = *at;
        return std::nullopt;
    }
    if (key == "mode") {
        std::optional<std::string> name;
        if (auto failed = read_optional_string(v, "mode", name)) return failed;
        if (!name) return std::nullopt;
        auto mode = parse_mode(*name);
        if (!mode) return invalid(fmt::format("mode: '{}' is not one of hybrid, semantic, keyword", *name));
        out.mode = *mode;
        return std::nullopt;
    }
    if (key == "match") {
        std::optional<std::string> name;
        if (auto failed = read_optional_string(v, "match", name)) return failed;
        if (!name) return std::nullopt;
        return read_match(*name, out.match_all);
    }
    if (key == "limit") {
        if (core::is_null(v)) return std::nullopt;
        auto limit = core::read_int(v, "limit", &error);
        if (!limit) return error;
        return read_limit(*limit, "limit", out.limit);
    }
    if (key == "min_similarity") {
        if (core::is_null(v)) return std::nullopt;
        auto similarity = core::read_number(v, "min_similarity", &error);
        if (!similarity) return error;
        if (*similarity < -1 || *similarity > 1)
            return invalid(fmt::format("min_similarity: {} is outside -1..1 (a cosine similarity)", *similarity));
        out.min_similarity = *similarity;
    }
    return std::nullopt;
}

std::optional<Error> check_recall(const RecallInput& in) {
    bool has_query = in.query && !in.query->empty();
    if (!has_query && !in.embedding)
        return invalid("query: recall needs a query text, an embedding, or both; send {\"query\": \"...\"}");
    if (in.mode == RecallMode::Keyword && !has_query) return invalid("query: mode keyword needs a query text");
    if (in.created_after_us && in.created_before_us && *in.created_after_us >= *in.created_before_us)
        return invalid("created_before: must be later than created_after");
    return std::nullopt;
}

}  // namespace

std::string_view mode_name(RecallMode mode) {
    switch (mode) {
        case RecallMode::Hybrid:
            return "hybrid";
        case RecallMode::Semantic:
            return "semantic";
        case RecallMode::Keyword:
            return "keyword";
        case RecallMode::Default:
            break;
    }
    return "default";
}

std::optional<RecallMode> parse_mode(std::string_view name) {
    if (name == "hybrid") return RecallMode::Hybrid;
    if (name == "semantic") return RecallMode::Semantic;
    if (name == "keyword") return RecallMode::Keyword;
    return std::nullopt;
}

std::optional<Error> decode_text_item(std::string json, std::string_view prefix, const MemoryRequestLimits& limits,
                                      MemoryItemInput& out) {
    std::string whole = prefix.empty() ? std::string("the memory") : std::string(prefix);
    auto field_path = [prefix](std::string_view name) {
        return prefix.empty() ? std::string(name) : fmt::format("{}.{}", prefix, name);
    };
    core::ParsedBody parsed;
    if (core::parse_body(json, parsed)) return core::type_error(whole, "an object");
    od::object object;
    if (parsed.document.get_object().get(object) != simdjson::SUCCESS) return core::type_error(whole, "an object");
    std::optional<std::string> item_text;
    std::optional<std::vector<float>> ignored_vector;
    std::optional<std::string> ignored_model;
    std::optional<int64_t> ignored_ttl;
    CommonFields fields{&item_text, &out.name_space, &out.metadata_json, &ignored_vector, &ignored_model, &ignored_ttl};
    core::KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        od::value v;
        if (field.unescaped_key().get(key) || field.value().get(v)) return core::type_error(whole, "an object");
        if (auto error = keys.check(prefix, key)) return error;
        if (key != "text" && key != "namespace" && key != "metadata") continue;
        bool handled = false;
        if (auto error = read_common_field(key, v, prefix, limits, fields, &handled)) return error;
    }
    if (!item_text) return invalid(fmt::format("{}: required; every memory needs its text", field_path("text")));
    out.text = std::move(*item_text);
    return std::nullopt;
}

std::optional<Error> decode_memory_write(std::string& body, const MemoryRequestLimits& limits, MemoryWriteInput& out) {
    bool has_memories = false;
    auto error = core::for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "memories") {
            has_memories = true;
            return decode_items(v, limits, out.items);
        }
        if (key == "wait") {
            if (core::is_null(v)) return std::nullopt;
            Error e;
            auto wait = core::read_bool(v, "wait", &e);
            if (!wait) return e;
            out.wait = *wait;
        }
        return std::nullopt;
    });
    if (error) return error;
    if (!has_memories) return invalid("memories: required; send {\"memories\": [{\"text\": \"...\"}]}");
    return std::nullopt;
}

std::optional<Error> decode_extracted(std::string& json, const MemoryRequestLimits& limits, ExtractedItems& out) {
    core::ParsedBody parsed;
    if (auto error = core::parse_body(json, parsed)) return error;
    od::array array;
    if (parsed.document.get_array().get(array) != simdjson::SUCCESS)
        return core::type_error("the extractor's answer", "a JSON array of {text, namespace?, metadata?}");
    // Copied out first: reading an item parses again, with this thread's one parser.
    std::vector<std::string> raw_items;
    for (auto element : array) {
        od::value item;
        std::optional<std::string_view> raw;
        if (element.get(item) == simdjson::SUCCESS) raw = core::raw_value(item);
        if (!raw) return core::type_error("the extractor's answer", "a JSON array of {text, namespace?, metadata?}");
        raw_items.emplace_back(*raw);
    }
    for (size_t index = 0; index < raw_items.size(); ++index) {
        MemoryItemInput memory;
        if (index >= limits.max_batch) {
            out.skipped.emplace_back(
                index, fmt::format("more than limits.max_batch_events ({}) items in one answer", limits.max_batch));
        } else if (auto error =
                       decode_text_item(std::move(raw_items[index]), fmt::format("[{}]", index), limits, memory)) {
            out.skipped.emplace_back(index, error->message);
        } else {
            out.items.push_back(std::move(memory));
        }
    }
    return std::nullopt;
}

std::optional<Error> decode_memory_patch(std::string& body, const MemoryRequestLimits& limits, MemoryPatchInput& out) {
    CommonFields fields{&out.text,      &out.name_space,      &out.metadata_json,
                        &out.embedding, &out.embedding_model, &out.ttl_seconds};
    return core::for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        bool handled = false;
        return read_common_field(key, v, "", limits, fields, &handled);
    });
}

std::optional<Error> decode_recall(std::string& body, RecallInput& out) {
    auto error =
        core::for_each_field(body, [&](std::string_view key, od::value& v) { return read_recall_field(key, v, out); });
    return error ? error : check_recall(out);
}

std::optional<Error> decode_recall_params(const RecallQueryParams& params, RecallInput& out) {
    out.query = params.q;
    if (params.name_space) {
        if (auto error = check_namespace(*params.name_space, "namespace")) return error;
        out.name_space = params.name_space;
    }
    if (params.mode) {
        auto mode = parse_mode(*params.mode);
        if (!mode) return invalid(fmt::format("mode: '{}' is not one of hybrid, semantic, keyword", *params.mode));
        out.mode = *mode;
    }
    if (params.match) {
        if (auto error = read_match(*params.match, out.match_all)) return error;
    }
    if (params.limit) {
        int64_t limit = 0;
        size_t used = 0;
        try {
            limit = std::stoll(*params.limit, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != params.limit->size())
            return invalid(fmt::format("limit: '{}' is not a whole number", *params.limit));
        if (auto error = read_limit(limit, "limit", out.limit)) return error;
    }
    return check_recall(out);
}

}  // namespace mnemo::memory
