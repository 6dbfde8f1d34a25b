/*
 * core/state_delta.h -- state deltas and the merged state view.
 *
 * Owns the scope rules of docs/api.md: `app:K` goes to the app scope, `user:K` to
 * the user scope, `temp:K` to nothing persistent (stripped from what is
 * stored, shown in the write's response only), anything else to the
 * session; a null value deletes, unless the request asked for nulls to be
 * stored (`"state_nulls": "store"`). Also builds the merged `state` object of a
 * Session (own keys, then `app:` and `user:` prefixed keys).
 */
#pragma once

#include "core/errors.h"
#include "core/json_input.h"
#include "storage/rows.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::core {

inline constexpr int kScopeTemp = -1;

struct StateChange {
    int scope = MNEMO_SCOPE_SESSION;        // or kScopeTemp
    std::string key;                        // without its prefix
    std::optional<std::string> value_json;  // nullopt deletes
};

struct DecodedDelta {
    std::vector<StateChange> changes;
    std::optional<std::string> stored_json;  // the delta as stored: temp: keys stripped; nullopt if nothing left
    size_t raw_bytes = 0;
};

// Decodes a state_delta object. With split_prefixes false (app/user scope
// endpoints) every key goes to `fixed_scope` as written.
std::optional<Error> decode_delta(od::value& value, std::string_view path, bool split_prefixes, int fixed_scope,
                                  DecodedDelta& out);

// Turns every deleting change into one that stores a JSON null: the request
// said `"state_nulls": "store"` (ADK 2.x keeps None-valued state keys).
void store_nulls(DecodedDelta& delta);

// Reads a request's `state_nulls` field: "delete" (the default) or "store".
std::optional<Error> read_state_nulls(od::value& value, bool& store);

// The storage ops for changes (temp changes left out); they point into `changes`.
std::vector<mnemo_state_op> to_ops(const std::vector<StateChange>& changes);

// The merged state object: session keys, app:K, user:K, then `temp` changes
// applied on top (writes only).
std::string merged_state_json(const std::vector<storage::StateEntry>& entries,
                              const std::vector<const StateChange*>& temp_changes = {});

// The temp: changes among `changes`, for merged_state_json.
std::vector<const StateChange*> temp_changes_of(const std::vector<StateChange>& changes);

// A single scope's entries as a plain object (app or user state endpoints).
std::string scope_state_json(const std::vector<storage::StateEntry>& entries);

}  // namespace mnemo::core
