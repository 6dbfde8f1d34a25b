// Shared helpers for the config unit tests.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"

namespace mnemo::config::testing {

inline constexpr const char* kBaseDir = "/srv/mnemo";

inline LoadResult load(const std::string& yaml) {
    return load_string(yaml, "mnemod.yaml", kBaseDir);
}

// The errors of a config that must fail; empty when it loaded.
inline std::vector<std::string> errors_of(const std::string& yaml) {
    return load(yaml).errors;
}

// Loads a config that must be valid; a failing load shows its errors.
inline std::shared_ptr<const Config> valid(const std::string& yaml) {
    LoadResult result = load(yaml);
    std::string all;
    for (const std::string& error : result.errors) all += error + "\n";
    EXPECT_TRUE(result.errors.empty()) << all;
    EXPECT_NE(result.config, nullptr);
    return result.config;
}

// What a reload from before to after would apply and refuse; both must be valid.
inline ReloadPlan plan(const std::string& before, const std::string& after) {
    return plan_reload(*valid(before), *valid(after));
}

}  // namespace mnemo::config::testing
