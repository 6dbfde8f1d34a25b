/*
 * scripting_fixture.h -- integration tests of the Lua runtime: a daemon
 * whose scripts.dir is a scratch folder the test fills first. Hook effects
 * that have no response of their own (finalize, reset) are made visible
 * through a `get` hook that copies Lua globals into session metadata.
 */
#pragma once

#include "fixture.h"

#include <chrono>
#include <filesystem>
#include <thread>
#include <string>

namespace mnemo::integration {

class ScriptingTest : public DaemonTest {
protected:
    // Writes scripts.dir/<name> (subfolders created).
    void script(const std::string& name, const std::string& text) {
        std::filesystem::create_directories(std::filesystem::path(scripts_.path() + "/" + name).parent_path());
        scripts_.write(name, text);
    }
    // Copies a shipped script from the source tree's scripts/.
    void shipped(const std::string& name) {
        std::filesystem::create_directories(std::filesystem::path(scripts_.path() + "/" + name).parent_path());
        std::filesystem::copy_file(std::string(MNEMO_SOURCE_DIR) + "/scripts/" + name, scripts_.path() + "/" + name,
                                   std::filesystem::copy_options::overwrite_existing);
    }
    // The memory-backend config with scripts.dir set, plus more sections.
    std::string config(const std::string& sections = "", const std::string& scripts_lines = "") const {
        return base_config("", "scripts:\n  dir: " + scripts_.path() + "\n" + scripts_lines + sections);
    }
    std::string append_body(const std::string& text) const {
        return R"({"create_if_missing":true,"events":[{"author":"user","content":{"text":")" + text + R"("}}]})";
    }
    HttpResponse append(const std::string& id, const std::string& body) {
        return call("POST", session_path(id) + "/events", body);
    }

    TempDir scripts_;
};

}  // namespace mnemo::integration
