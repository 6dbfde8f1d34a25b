#include "core/ids.h"

#include <fmt/format.h>

#include <mutex>
#include <random>

namespace mnemo::core {

namespace {
bool name_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == ':' || c == '@' || c == '-';
}
}  // namespace

bool valid_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameBytes || name == "." || name == "..") return false;
    for (unsigned char c : name) {
        if (!name_char(c)) return false;
    }
    return true;
}

std::string name_problem(std::string_view name) {
    if (name.empty()) return "is empty";
    if (name.size() > kMaxNameBytes) return fmt::format("is {} bytes long (at most {})", name.size(), kMaxNameBytes);
    if (name == "." || name == "..") return fmt::format("'{}' is not allowed", name);
    return "may only contain A-Z a-z 0-9 . _ : @ -";
}

std::string uuid_v7(int64_t unix_us) {
    static std::mutex mutex;
    static std::mt19937_64 rng{std::random_device{}()};
    static uint64_t last_ms = 0;
    static uint64_t counter = 0;  // 12 bits of rand_a, bumped within one millisecond
    uint64_t ms = static_cast<uint64_t>(unix_us / 1000);
    uint64_t rand_a, rand_b;
    {
        std::lock_guard lock(mutex);
        if (ms <= last_ms) {
            ms = last_ms;
            if (++counter > 0xfff) {
                ++ms;
                counter = rng() & 0x3ff;
            }
        } else {
            counter = rng() & 0x3ff;
        }
        last_ms = ms;
        rand_a = counter;
        rand_b = rng();
    }
    uint64_t hi = (ms << 16) | 0x7000 | (rand_a & 0xfff);
    uint64_t lo = (rand_b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
    return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff, hi & 0xffff,
                       lo >> 48, lo & 0xffffffffffffULL);
}

}  // namespace mnemo::core
