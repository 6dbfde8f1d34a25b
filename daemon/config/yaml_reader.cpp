#include "config/yaml_reader.h"

#include <simdjson.h>

#include <set>

#include "config/units.h"

namespace mnemo::config {
namespace {

std::string unknown_key_message(std::string_view key, const std::vector<Field>& fields) {
    std::vector<std::string_view> known;
    for (const Field& field : fields) known.push_back(field.key);
    std::string suggestion = nearest_key(key, known);
    if (!suggestion.empty()) return "unknown key (did you mean '" + suggestion + "'?)";
    if (known.empty()) return "unknown key (this map takes no keys)";
    return "unknown key (expected one of " + choice_list(known) + ")";
}

const Field* find_field(std::string_view key, const std::vector<Field>& fields) {
    for (const Field& field : fields) {
        if (field.key == key) return &field;
    }
    return nullptr;
}

bool expect_kind(Context& ctx, const YAML::Node& node, const Place& place, YAML::NodeType::value kind,
                 std::string_view what) {
    if (node.Type() == kind) return true;
    ctx.error(place, "expected " + std::string(what) + ", got " + describe(node));
    return false;
}

}  // namespace

std::string child_path(std::string_view parent, std::string_view key) {
    if (parent.empty()) return std::string(key);
    return std::string(parent) + "." + std::string(key);
}

std::string item_path(std::string_view parent, size_t index) {
    return std::string(parent) + "[" + std::to_string(index) + "]";
}

Place place_of(const YAML::Node& node, std::string path, const YAML::Mark& fallback) {
    YAML::Mark mark = node.Mark();
    return {std::move(path), mark.line >= 0 ? mark : fallback};
}

std::string describe(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Map:
            return "a map";
        case YAML::NodeType::Scalar:
            return "\"" + node.Scalar() + "\"";
        default:
            return "nothing";
    }
}

std::string choice_list(const std::vector<std::string_view>& names) {
    std::string text;
    for (std::string_view name : names) {
        if (!text.empty()) text += ", ";
        text += name;
    }
    return text;
}

void for_each_entry(Context& ctx, const YAML::Node& node, const Place& place,
                    const std::function<void(const MapEntry&)>& each) {
    if (node.IsNull()) return;
    if (!expect_kind(ctx, node, place, YAML::NodeType::Map, "a map")) return;
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
        // Copies: the iterator hands out a temporary pair, references to it dangle.
        const YAML::Node key = it->first;
        const YAML::Node value = it->second;
        Place key_place = place_of(key, place.path, place.mark);
        if (!key.IsScalar()) {
            ctx.error(key_place, "expected a plain key name, got " + describe(key));
            continue;
        }
        key_place.path = child_path(place.path, key.Scalar());
        if (!seen.insert(key.Scalar()).second) {
            ctx.error(key_place, "duplicate key (each key may appear once)");
            continue;
        }
        // An empty value has no place of its own (its mark is the next token), so the key stands in.
        Place value_place = value.IsNull() ? key_place : place_of(value, key_place.path, key_place.mark);
        each({key.Scalar(), value, value_place, key_place});
    }
}

void read_map(Context& ctx, const YAML::Node& node, const Place& place, const std::vector<Field>& fields) {
    for_each_entry(ctx, node, place, [&](const MapEntry& entry) {
        const Field* field = find_field(entry.key, fields);
        if (field == nullptr) {
            ctx.error(entry.key_place, unknown_key_message(entry.key, fields));
            return;
        }
        field->read(entry.value, entry.place);
    });
}

void for_each_item(Context& ctx, const YAML::Node& node, const Place& place,
                   const std::function<void(const YAML::Node&, const Place&)>& each) {
    if (!expect_kind(ctx, node, place, YAML::NodeType::Sequence, "a list")) return;
    for (size_t i = 0; i < node.size(); ++i) {
        each(node[i], place_of(node[i], item_path(place.path, i), place.mark));
    }
}

std::optional<std::string> read_scalar(Context& ctx, const YAML::Node& node, const Place& place,
                                       std::string_view what) {
    if (!expect_kind(ctx, node, place, YAML::NodeType::Scalar, what)) return std::nullopt;
    auto expanded = expand_env(node.Scalar(), ctx.env);
    if (auto* error = std::get_if<EnvError>(&expanded)) {
        ctx.error(place, error->message);
        return std::nullopt;
    }
    // Values are shown as JSON (mnemoctl, --print-config) and sent in headers and logs.
    if (!simdjson::validate_utf8(std::get<std::string>(expanded))) {
        ctx.error(place, "the value is not valid UTF-8 (in the file or in an environment variable it names); "
                         "write it as UTF-8 text");
        return std::nullopt;
    }
    return std::get<std::string>(std::move(expanded));
}

std::optional<bool> read_bool(Context& ctx, const YAML::Node& node, const Place& place) {
    auto text = read_scalar(ctx, node, place, "true or false");
    if (!text) return std::nullopt;
    if (*text == "true") return true;
    if (*text == "false") return false;
    ctx.error(place, "expected true or false, got \"" + *text + "\"");
    return std::nullopt;
}

std::optional<uint64_t> read_number(Context& ctx, const YAML::Node& node, const Place& place, uint64_t min,
                                    uint64_t max) {
    auto text = read_scalar(ctx, node, place, "a whole number");
    if (!text) return std::nullopt;
    auto number = parse_whole_number(*text, min, max);
    if (auto* error = std::get_if<UnitError>(&number)) {
        ctx.error(place, error->message);
        return std::nullopt;
    }
    return std::get<uint64_t>(number);
}

std::optional<int64_t> read_duration(Context& ctx, const YAML::Node& node, const Place& place, bool positive) {
    auto text = read_scalar(ctx, node, place, "a duration like 250ms, 30s, 5m, 24h, 30d or whole seconds");
    if (!text) return std::nullopt;
    auto duration = parse_duration_us(*text);
    if (auto* error = std::get_if<UnitError>(&duration)) {
        ctx.error(place, error->message);
        return std::nullopt;
    }
    if (positive && std::get<int64_t>(duration) == 0) {
        ctx.error(place, "must be greater than 0, got \"" + *text + "\"");
        return std::nullopt;
    }
    return std::get<int64_t>(duration);
}

std::optional<uint64_t> read_size(Context& ctx, const YAML::Node& node, const Place& place, bool positive) {
    auto text = read_scalar(ctx, node, place, "a size like 512, 64KiB, 4MiB or 1GiB");
    if (!text) return std::nullopt;
    auto size = parse_size_bytes(*text);
    if (auto* error = std::get_if<UnitError>(&size)) {
        ctx.error(place, error->message);
        return std::nullopt;
    }
    if (positive && std::get<uint64_t>(size) == 0) {
        ctx.error(place, "must be greater than 0, got \"" + *text + "\"");
        return std::nullopt;
    }
    return std::get<uint64_t>(size);
}

std::optional<std::vector<std::string>> read_string_list(Context& ctx, const YAML::Node& node, const Place& place) {
    if (!expect_kind(ctx, node, place, YAML::NodeType::Sequence, "a list of strings")) return std::nullopt;
    std::vector<std::string> items;
    bool valid = true;
    for_each_item(ctx, node, place, [&](const YAML::Node& item, const Place& at) {
        auto text = read_scalar(ctx, item, at, "a string");
        if (text) items.push_back(std::move(*text));
        valid = valid && text.has_value();
    });
    if (!valid) return std::nullopt;
    return items;
}

FieldReader string_field(Context& ctx, std::string& target) {
    return [&ctx, &target](const YAML::Node& value, const Place& place) {
        if (auto text = read_scalar(ctx, value, place, "a string")) target = std::move(*text);
    };
}

FieldReader bool_field(Context& ctx, bool& target) {
    return [&ctx, &target](const YAML::Node& value, const Place& place) {
        if (auto flag = read_bool(ctx, value, place)) target = *flag;
    };
}

FieldReader duration_field(Context& ctx, int64_t& target_us, bool positive) {
    return [&ctx, &target_us, positive](const YAML::Node& value, const Place& place) {
        if (auto duration = read_duration(ctx, value, place, positive)) target_us = *duration;
    };
}

FieldReader ttl_field(Context& ctx, int64_t& target_us) {
    // Past it, an expiry could leave the years RFC 3339 can write.
    constexpr int64_t kMaxTtlSeconds = 3'155'760'000;
    return [&ctx, &target_us](const YAML::Node& value, const Place& place) {
        auto duration = read_duration(ctx, value, place, false);
        if (!duration) return;
        if (*duration / 1'000'000 > kMaxTtlSeconds) {
            return ctx.error(place, "a TTL is at most 100 years (" + std::to_string(kMaxTtlSeconds) + "s), got \"" +
                                        value.Scalar() + "\"");
        }
        target_us = *duration;
    };
}

FieldReader size_field(Context& ctx, uint64_t& target, bool positive) {
    return [&ctx, &target, positive](const YAML::Node& value, const Place& place) {
        if (auto size = read_size(ctx, value, place, positive)) target = *size;
    };
}

FieldReader string_list_field(Context& ctx, std::vector<std::string>& target) {
    return [&ctx, &target](const YAML::Node& value, const Place& place) {
        if (auto items = read_string_list(ctx, value, place)) target = std::move(*items);
    };
}

}  // namespace mnemo::config
