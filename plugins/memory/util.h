// util.h -- small value helpers shared by the memory backend: owned copies of
// ABI strings (keeping "absent" apart from "empty"), expiry arithmetic and a
// string-keyed hash map that accepts string_view lookups without allocating.
// Free of the host's services, so tests can compile a module with it alone.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::memory {

inline std::string_view view(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline std::string copy(mnemo_str s) {
    return std::string(view(s));
}
// An absent value (nullopt) is the ABI's ptr NULL, as in host::optional_copy.
inline std::optional<std::string> copy_opt(mnemo_str s) {
    return s.ptr ? std::optional<std::string>(copy(s)) : std::nullopt;
}
inline mnemo_str out(const std::string& s) {
    return mnemo_str{s.data(), s.size()};
}
inline mnemo_str out(const std::optional<std::string>& s) {
    return s ? out(*s) : mnemo_str{nullptr, 0};
}

// 0 in an expiry means "never"; an item is gone the moment its expiry passes.
inline bool live_at(int64_t expires_at_us, int64_t now_us) {
    return expires_at_us == 0 || expires_at_us > now_us;
}
inline int64_t expiry_after(int64_t now_us, int64_t ttl_us) {
    return ttl_us > 0 ? now_us + ttl_us : 0;
}

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace mnemo::memory
