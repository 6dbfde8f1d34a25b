// What the fuzz targets share: a failed property aborts with the input's
// offending text, so libFuzzer keeps the input as a crash and the replay
// test fails on it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace mnemo::fuzz {

inline void require(bool condition, const char* target, const char* what, std::string_view text) {
    if (condition) return;
    std::fprintf(stderr, "%s fuzz: %s: %.*s\n", target, what, static_cast<int>(text.size()), text.data());
    std::abort();
}

}  // namespace mnemo::fuzz
