// util.h -- small value helpers shared by the memory backend: owned copies of
// ABI strings (keeping "absent" apart from "empty"), expiry arithmetic and a
// string-keyed hash map that accepts string_view lookups without allocating.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::memory {

// An owned mnemo_str: present == false is the ABI's ptr NULL.
struct OptStr {
    std::string bytes;
    bool present = false;
};

inline std::string_view view(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline std::string copy(mnemo_str s) {
    return std::string(view(s));
}
inline OptStr copy_opt(mnemo_str s) {
    return s.ptr ? OptStr{copy(s), true} : OptStr{};
}
inline mnemo_str out(const std::string& s) {
    return mnemo_str{s.data(), s.size()};
}
inline mnemo_str out(const OptStr& s) {
    return s.present ? out(s.bytes) : mnemo_str{nullptr, 0};
}
inline bool same(const OptStr& a, mnemo_str b) {
    return a.present == (b.ptr != nullptr) && (!a.present || a.bytes == view(b));
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
