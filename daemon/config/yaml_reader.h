// Typed reading of YAML nodes into Config fields. Each section of the config
// is described as a table of Fields (key -> reader); read_map walks a map
// node against such a table, so unknown keys, wrong types and bad values are
// all reported through one Diagnostics with their key path and position.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/diagnostics.h"
#include "config/env_expand.h"

namespace mnemo::config {

struct Context {
    Diagnostics& diagnostics;
    EnvLookup env;
    void error(const Place& place, std::string_view message) { diagnostics.add(place, message); }
};

using FieldReader = std::function<void(const YAML::Node& value, const Place& place)>;

struct Field {
    std::string_view key;
    FieldReader read;
};

std::string child_path(std::string_view parent, std::string_view key);
std::string item_path(std::string_view parent, size_t index);
Place place_of(const YAML::Node& node, std::string path, const YAML::Mark& fallback);
// "a list", "a map", "nothing", or the scalar in quotes.
std::string describe(const YAML::Node& node);

// Walks a map node (null counts as empty) and dispatches each key to its
// field; reports non-maps, unknown keys (with a suggestion) and duplicates.
void read_map(Context& ctx, const YAML::Node& node, const Place& place, const std::vector<Field>& fields);
struct MapEntry {
    const std::string& key;
    const YAML::Node& value;
    Place place;      // the value's
    Place key_place;  // the key's, for errors about the key itself
};

// Calls `each` for every entry of a map node (null counts as empty).
void for_each_entry(Context& ctx, const YAML::Node& node, const Place& place,
                    const std::function<void(const MapEntry& entry)>& each);
// Calls `each` for every item of a list node.
void for_each_item(Context& ctx, const YAML::Node& node, const Place& place,
                   const std::function<void(const YAML::Node& item, const Place& place)>& each);

// A scalar's text after ${VAR} expansion; reports "expected <what>, got ...".
std::optional<std::string> read_scalar(Context& ctx, const YAML::Node& node, const Place& place, std::string_view what);
std::optional<bool> read_bool(Context& ctx, const YAML::Node& node, const Place& place);
std::optional<uint64_t> read_number(Context& ctx, const YAML::Node& node, const Place& place, uint64_t min,
                                    uint64_t max);
// `positive`: 0 is refused too.
std::optional<int64_t> read_duration(Context& ctx, const YAML::Node& node, const Place& place, bool positive);
std::optional<uint64_t> read_size(Context& ctx, const YAML::Node& node, const Place& place, bool positive);
std::optional<std::vector<std::string>> read_string_list(Context& ctx, const YAML::Node& node, const Place& place);

template <class E>
using Choices = std::vector<std::pair<std::string_view, E>>;

std::string choice_list(const std::vector<std::string_view>& names);

template <class E>
std::optional<E> read_enum(Context& ctx, const YAML::Node& node, const Place& place, const Choices<E>& choices) {
    std::vector<std::string_view> names;
    for (const auto& choice : choices) names.push_back(choice.first);
    auto text = read_scalar(ctx, node, place, "one of " + choice_list(names));
    if (!text) return std::nullopt;
    for (const auto& [name, value] : choices) {
        if (*text == name) return value;
    }
    ctx.error(place, "expected one of " + choice_list(names) + ", got \"" + *text + "\"");
    return std::nullopt;
}

// Field readers that store into `target` when the value is valid.
FieldReader string_field(Context& ctx, std::string& target);
FieldReader bool_field(Context& ctx, bool& target);
FieldReader duration_field(Context& ctx, int64_t& target_us, bool positive = false);
// A TTL: a duration of 0 (never expires) up to 100 years, the bound of the API's ttl_seconds.
FieldReader ttl_field(Context& ctx, int64_t& target_us);
FieldReader size_field(Context& ctx, uint64_t& target, bool positive = true);
FieldReader string_list_field(Context& ctx, std::vector<std::string>& target);

template <class T>
FieldReader number_field(Context& ctx, T& target, uint64_t min,
                         uint64_t max = static_cast<uint64_t>(std::numeric_limits<T>::max())) {
    return [&ctx, &target, min, max](const YAML::Node& value, const Place& place) {
        if (auto number = read_number(ctx, value, place, min, max)) target = static_cast<T>(*number);
    };
}

template <class E>
FieldReader enum_field(Context& ctx, E& target, Choices<E> choices) {
    return [&ctx, &target, choices = std::move(choices)](const YAML::Node& value, const Place& place) {
        if (auto chosen = read_enum(ctx, value, place, choices)) target = *chosen;
    };
}

}  // namespace mnemo::config
