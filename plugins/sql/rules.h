// rules.h -- small value rules shared by the SQL backends' operations:
// expiry arithmetic (identical to every other backend), string views of ABI
// strings and the wording that names a session in user-facing messages.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace mnemo::sqlcore {

// 0 in an expiry means "never"; an item is gone the moment its expiry passes.
inline bool live_at(int64_t expires_at_us, int64_t now_us) {
    return expires_at_us == 0 || expires_at_us > now_us;
}
inline int64_t expiry_after(int64_t now_us, int64_t ttl_us) {
    return ttl_us > 0 ? now_us + ttl_us : 0;
}

inline std::string_view view(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline std::string text(mnemo_str s) {
    return std::string(view(s));
}
inline mnemo_str str(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}
inline bool same_bytes(mnemo_str a, mnemo_str b) {
    return (a.ptr == nullptr) == (b.ptr == nullptr) && view(a) == view(b);
}

// A purge (hard delete, user purge) keeps the row of a session whose finalize
// is still owed as a tombstone with this deleted_at: "deleted long ago", so
// the sweep removes it at its first step after the finalize is done,
// whatever purge_after says. Only tombstones have it (no real delete happens
// 1 us after the epoch).
inline constexpr int64_t kTombstoneDeletedAtUs = 1;
// The sessions whose finalize is owed: never marked and not deleted (live or
// expired before the sweep saw it), or marked and not yet finalized.
inline constexpr const char* kOwesFinalizeSql =
    "((finalize_reason = 0 AND deleted_at = 0) OR (finalize_reason > 0 AND finalized_at = 0))";

// "session u1/s9 in app shop", the way docs/api.md names a session.
inline std::string describe(const mnemo_key& key) {
    return "session " + text(key.user) + "/" + text(key.session_id) + " in app " + text(key.app);
}

// The absent session's message, worded as the memory plugin and the core word it.
inline std::string session_not_found(const mnemo_key& key) {
    return "session " + text(key.user) + "/" + text(key.session_id) + " not found in app " + text(key.app);
}

}  // namespace mnemo::sqlcore
