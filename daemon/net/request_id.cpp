#include "net/request_id.h"

#include <chrono>
#include <cstdint>
#include <random>

namespace mnemo::net {

namespace {

constexpr size_t kMaxRequestIdBytes = 128;

// splitmix64: one multiply-xorshift round per id, seeded once per thread, so
// ids from different threads and restarts do not collide in practice.
uint64_t next_random() {
    thread_local uint64_t state = [] {
        std::random_device device;
        uint64_t seed = (uint64_t{device()} << 32) ^ device();
        return seed ^ static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    }();
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

bool is_sane_request_id(std::string_view id) {
    if (id.empty() || id.size() > kMaxRequestIdBytes) return false;
    for (char c : id) {
        if (c < 0x20 || c > 0x7e) return false;
    }
    return true;
}

std::string generate_request_id() {
    static constexpr char kHex[] = "0123456789abcdef";
    uint64_t bits = next_random();
    std::string id(16, '0');
    for (size_t i = 0; i < 16; ++i) {
        id[i] = kHex[(bits >> (60 - 4 * i)) & 0xf];
    }
    return id;
}

}  // namespace mnemo::net
