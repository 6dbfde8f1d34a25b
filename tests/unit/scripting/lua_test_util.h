// Helpers for the scripting unit tests: a state on the default config, and running chunks in it.
#pragma once

#include "config/config.h"
#include "scripting/script_set.h"
#include "scripting/script_state.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace mnemo::scripting::testing {

inline std::shared_ptr<const config::Config> default_config(const std::string& yaml = "") {
    auto loaded = config::load_string(yaml, "test.yaml", "/tmp");
    EXPECT_TRUE(loaded.config) << (loaded.errors.empty() ? "" : loaded.errors.front());
    return loaded.config;
}

inline std::unique_ptr<ScriptState> make_state(Bounds bounds = {1000000, 64u << 20, 1000000},
                                               const std::string& yaml = "") {
    auto state = std::make_unique<ScriptState>(bounds, default_config(yaml));
    EXPECT_FALSE(state->open_error()) << *state->open_error();
    return state;
}

// Loads `code` as the script "test.lua"; the load error, or nullopt.
inline std::optional<std::string> run_chunk(ScriptState& state, const std::string& code,
                                            const std::string& name = "test.lua") {
    ScriptSet set{"/scripts", {ScriptFile{name, code}}};
    return load_scripts(state, set);
}

inline std::string read_source_file(const std::string& relative) {
    std::ifstream in(std::string(MNEMO_SOURCE_DIR) + "/" + relative);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace mnemo::scripting::testing
