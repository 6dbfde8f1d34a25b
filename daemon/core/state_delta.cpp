#include "core/state_delta.h"

#include "core/json_writer.h"

#include <fmt/format.h>

#include <map>

namespace mnemo::core {
namespace {

struct Prefix {
    std::string_view text;
    int scope;
};
constexpr Prefix kPrefixes[] = {{"app:", MNEMO_SCOPE_APP}, {"user:", MNEMO_SCOPE_USER}, {"temp:", kScopeTemp}};

std::optional<Error> split_key(std::string_view key, std::string_view path, StateChange& change) {
    change.scope = MNEMO_SCOPE_SESSION;
    change.key = std::string(key);
    for (const auto& prefix : kPrefixes) {
        if (key.substr(0, prefix.text.size()) == prefix.text) {
            change.scope = prefix.scope;
            change.key = std::string(key.substr(prefix.text.size()));
            break;
        }
    }
    if (change.key.empty()) return invalid(fmt::format("{}: state key '{}' has no name after its prefix", path, key));
    return std::nullopt;
}

void write_stored_delta(const std::vector<std::pair<std::string, std::string>>& kept, std::string& out) {
    JsonWriter w(out);
    w.begin_object();
    for (const auto& [key, raw] : kept) w.raw_field(key, raw);
    w.end_object();
}

}  // namespace

std::optional<Error> decode_delta(od::value& value, std::string_view path, bool split_prefixes, int fixed_scope,
                                  DecodedDelta& out) {
    od::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS) return type_error(path, "an object");
    std::string_view whole;
    if (object.raw_json().get(whole) == simdjson::SUCCESS) out.raw_bytes = whole.size();
    if (object.reset().error() != simdjson::SUCCESS) return type_error(path, "an object");
    std::vector<std::pair<std::string, std::string>> kept;  // stored keys (original text) and raw values
    bool stripped = false;
    KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) return type_error(path, "an object");
        if (auto error = keys.check(path, key)) return error;
        if (key.empty()) return invalid(fmt::format("{}: state keys must not be empty", path));
        StateChange change;
        if (split_prefixes) {
            if (auto error = split_key(key, path, change)) return error;
        } else {
            change.scope = fixed_scope;
            change.key = std::string(key);
        }
        od::value v = field.value();
        auto raw = raw_value(v);
        if (!raw) return type_error(fmt::format("{}.{}", path, key), "a JSON value");
        if (*raw != "null") change.value_json = std::string(*raw);
        if (change.scope == kScopeTemp) {
            stripped = true;
        } else {
            kept.emplace_back(std::string(key), std::string(*raw));
        }
        out.changes.push_back(std::move(change));
    }
    if (!stripped) {
        out.stored_json = std::string(whole);
    } else if (!kept.empty()) {
        out.stored_json.emplace();
        write_stored_delta(kept, *out.stored_json);
    }
    return std::nullopt;
}

void store_nulls(DecodedDelta& delta) {
    for (auto& change : delta.changes) {
        if (!change.value_json) change.value_json = "null";
    }
}

std::optional<Error> read_state_nulls(od::value& value, bool& store) {
    Error error;
    auto mode = read_string(value, "state_nulls", &error);
    if (!mode) return error;
    if (*mode != "delete" && *mode != "store") {
        return invalid(fmt::format("state_nulls: unknown mode '{}'; use \"delete\" (a null deletes the key, the "
                                   "default) or \"store\" (a null is kept as the key's value)",
                                   *mode));
    }
    store = *mode == "store";
    return std::nullopt;
}

std::vector<mnemo_state_op> to_ops(const std::vector<StateChange>& changes) {
    std::vector<mnemo_state_op> ops;
    ops.reserve(changes.size());
    for (const auto& change : changes) {
        if (change.scope == kScopeTemp) continue;
        mnemo_state_op op{};
        op.scope = change.scope;
        op.key = storage::str(change.key);
        op.value_json = change.value_json ? storage::str(*change.value_json) : storage::absent();
        ops.push_back(op);
    }
    return ops;
}

std::string merged_state_json(const std::vector<storage::StateEntry>& entries,
                              const std::vector<const StateChange*>& temp_changes) {
    // Insertion order: session keys, then app:, then user:; temp: last.
    std::vector<std::pair<std::string, std::string>> merged;
    merged.reserve(entries.size() + temp_changes.size());
    for (int scope : {MNEMO_SCOPE_SESSION, MNEMO_SCOPE_APP, MNEMO_SCOPE_USER}) {
        for (const auto& entry : entries) {
            if (entry.scope != scope) continue;
            std::string key = scope == MNEMO_SCOPE_APP    ? "app:" + entry.key
                              : scope == MNEMO_SCOPE_USER ? "user:" + entry.key
                                                          : entry.key;
            merged.emplace_back(std::move(key), entry.value_json);
        }
    }
    std::map<std::string, const StateChange*> temps;  // last write of each temp key wins
    for (const auto* change : temp_changes) temps[change->key] = change;
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    for (const auto& [key, value] : merged) w.raw_field(key, value);
    for (const auto& [key, change] : temps) {
        if (change->value_json) w.raw_field("temp:" + key, *change->value_json);
    }
    w.end_object();
    return out;
}

std::vector<const StateChange*> temp_changes_of(const std::vector<StateChange>& changes) {
    std::vector<const StateChange*> temps;
    for (const auto& change : changes) {
        if (change.scope == kScopeTemp) temps.push_back(&change);
    }
    return temps;
}

std::string scope_state_json(const std::vector<storage::StateEntry>& entries) {
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    for (const auto& entry : entries) w.raw_field(entry.key, entry.value_json);
    w.end_object();
    return out;
}

}  // namespace mnemo::core
