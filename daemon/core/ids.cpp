#include "core/ids.h"

#include <fmt/format.h>

#include <mutex>
#include <random>

namespace mnemo::core {

namespace {
bool name_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == ':' || c == '@' || c == '-';
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
    // Hex by hand: an id is made for every stored event.
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id(36, '-');
    size_t pos = 0;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) ++pos;  // the dashes
        uint64_t byte = i < 8 ? (hi >> (56 - 8 * i)) & 0xff : (lo >> (56 - 8 * (i - 8))) & 0xff;
        id[pos++] = kHex[byte >> 4];
        id[pos++] = kHex[byte & 15];
    }
    return id;
}

}  // namespace mnemo::core
