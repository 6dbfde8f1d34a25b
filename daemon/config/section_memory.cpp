// memory: section (docs/memories.md) with its embedder map, the subset an app may
// override under apps.<app>.memory, and the rules between memory keys.
#include <algorithm>

#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr size_t kMaxNamespaceBytes = 128;
constexpr uint64_t kMaxBatch = 2048;
constexpr uint64_t kMaxWorkers = 256;
constexpr uint64_t kMaxRetries = 100;

// docs/api.md's event roles.
const Choices<std::string> kRoles = {
    {"user", "user"}, {"assistant", "assistant"}, {"system", "system"}, {"tool", "tool"}, {"summary", "summary"}};

FieldReader roles_field(Context& ctx, std::vector<std::string>& target) {
    return [&ctx, &target](const YAML::Node& node, const Place& place) {
        std::vector<std::string> roles;
        size_t errors_before = ctx.diagnostics.count();
        for_each_item(ctx, node, place, [&](const YAML::Node& item, const Place& at) {
            auto role = read_enum(ctx, item, at, kRoles);
            if (!role) return;
            if (std::find(roles.begin(), roles.end(), *role) != roles.end())
                return ctx.error(at, "role \"" + *role + "\" is listed twice");
            roles.push_back(std::move(*role));
        });
        if (ctx.diagnostics.count() == errors_before) target = std::move(roles);
    };
}

// docs/memories.md's namespace rule: 0..128 bytes of [A-Za-z0-9._:@-].
FieldReader namespace_field(Context& ctx, std::string& target) {
    return [&ctx, &target](const YAML::Node& node, const Place& place) {
        auto text = read_scalar(ctx, node, place, "a namespace name");
        if (!text) return;
        if (text->size() > kMaxNamespaceBytes || !has_only_name_chars(*text)) {
            return ctx.error(place, "expected 0..128 bytes of letters, digits and . _ : @ -, got \"" + *text + "\"");
        }
        target = std::move(*text);
    };
}

// Remembers where a key was written, then reads it.
FieldReader placed(std::optional<Place>& where, FieldReader read) {
    return [&where, read = std::move(read)](const YAML::Node& n, const Place& p) {
        where = p;
        read(n, p);
    };
}

std::vector<Field> embedder_fields(Context& ctx, EmbedderConfig& embedder, MemoryPlaces& places) {
    using K = EmbedderConfig::Kind;
    return {
        {"kind",
         placed(places.kind, enum_field(ctx, embedder.kind,
                                        Choices<K>{{"none", K::None}, {"http", K::Http}, {"command", K::Command}}))},
        {"url", placed(places.url, string_field(ctx, embedder.url))},
        {"model", placed(places.model, string_field(ctx, embedder.model))},
        {"api_key", string_field(ctx, embedder.api_key)},
        {"command", placed(places.command, string_list_field(ctx, embedder.command))},
        {"batch", number_field(ctx, embedder.batch, 1, kMaxBatch)},
        {"workers", number_field(ctx, embedder.workers, 1, kMaxWorkers)},
        {"timeout", duration_field(ctx, embedder.timeout_us, true)},
        {"retries", number_field(ctx, embedder.retries, 0, kMaxRetries)},
    };
}

std::vector<Field> capture_fields(Context& ctx, MemoryConfig& memory, std::optional<Place>& capture_place) {
    using C = MemoryConfig::Capture;
    FieldReader capture =
        enum_field(ctx, memory.capture, Choices<C>{{"none", C::None}, {"events", C::Events}, {"extract", C::Extract}});
    return {
        {"ttl", ttl_field(ctx, memory.ttl_us)},
        {"capture", placed(capture_place, std::move(capture))},
        {"capture_roles", roles_field(ctx, memory.capture_roles)},
        {"capture_namespace", namespace_field(ctx, memory.capture_namespace)},
        {"extract_trigger", trigger_field(ctx, memory.extract_trigger)},
    };
}

void require(LoadState& state, std::optional<Place> place, std::string path, std::string_view message) {
    Place at = place.value_or(state.memory_places.embedder.value_or(state.memory_places.section.value_or(Place{})));
    at.path = std::move(path);
    state.ctx.error(at, message);
}

void check_embedder(LoadState& state) {
    const EmbedderConfig& embedder = state.config.memory.embedder;
    const MemoryPlaces& places = state.memory_places;
    if (embedder.kind == EmbedderConfig::Kind::Http) {
        bool has_scheme = embedder.url.starts_with("http://") || embedder.url.starts_with("https://");
        if (!has_scheme) {
            require(state, places.url.has_value() ? places.url : places.kind, "memory.embedder.url",
                    "expected the base URL of an OpenAI-compatible API starting with http:// or https:// (e.g. "
                    "http://127.0.0.1:11434/v1) when memory.embedder.kind is http, got \"" +
                        embedder.url + "\"");
        }
        if (embedder.model.empty()) {
            require(state, places.model.has_value() ? places.model : places.kind, "memory.embedder.model",
                    "expected the embedding model's name (e.g. nomic-embed-text) when memory.embedder.kind is http");
        }
    }
    if (embedder.kind == EmbedderConfig::Kind::Command && embedder.command.empty()) {
        require(state, places.command.has_value() ? places.command : places.kind, "memory.embedder.command",
                "expected a non-empty list (the embedder's argv, e.g. [\"/usr/bin/embed\", \"--json\"]) when "
                "memory.embedder.kind is command");
    }
}

}  // namespace

std::vector<Field> app_memory_fields(Context& ctx, MemoryConfig& memory, std::optional<Place>& capture_place) {
    return capture_fields(ctx, memory, capture_place);
}

std::vector<Field> memory_fields(LoadState& state) {
    Context& ctx = state.ctx;
    MemoryConfig& memory = state.config.memory;
    MemoryPlaces& places = state.memory_places;
    using E = MemoryConfig::Extractor;
    std::vector<Field> fields = capture_fields(ctx, memory, places.capture);
    std::vector<Field> embedder = embedder_fields(ctx, memory.embedder, places);
    fields.insert(
        fields.end(),
        {
            {"dimensions", number_field(ctx, memory.dimensions, 0, kMaxMemoryDimensions)},
            {"max_text_bytes", size_field(ctx, memory.max_text_bytes)},
            {"extractor", placed(places.extractor, enum_field(ctx, memory.extractor,
                                                              Choices<E>{{"lua", E::Lua}, {"command", E::Command}}))},
            {"extract_command", placed(places.extract_command, string_list_field(ctx, memory.extract_command))},
            {"queue_size", number_field(ctx, memory.queue_size, 1)},
            {"index_dir", string_field(ctx, memory.index_dir)},
            {"embedder",
             [&ctx, &places, embedder](const YAML::Node& n, const Place& p) {
                 places.embedder = p;
                 read_map(ctx, n, p, embedder);
             }},
        });
    return fields;
}

void check_app_extractor(LoadState& state, const MemoryConfig& memory, const std::optional<Place>& capture_place,
                         const std::string& capture_path) {
    bool needs_command = memory.capture == MemoryConfig::Capture::Extract &&
                         memory.extractor == MemoryConfig::Extractor::Command && memory.extract_command.empty();
    if (!needs_command) return;
    const MemoryPlaces& places = state.memory_places;
    std::optional<Place> place = capture_place;
    if (!place) place = places.extract_command.has_value() ? places.extract_command : places.extractor;
    Place at = place.value_or(places.section.value_or(Place{}));
    at.path = capture_path;
    state.ctx.error(
        at,
        "capture is extract and memory.extractor is command, but memory.extract_command is empty; set "
        "memory.extract_command to the extractor's argv (e.g. [\"/usr/bin/extract\"]) or use extractor: lua");
}

void check_memory_rules(LoadState& state) {
    check_embedder(state);
    check_app_extractor(state, state.config.memory, state.memory_places.capture, "memory.capture");
}

}  // namespace mnemo::config
