/*
 * scripting/script_set.h -- the scripts of scripts.dir, read and loaded.
 *
 * A ScriptSet is the text of hooks/NAME.lua in name order followed by
 * summarize.lua, read once so that the loop's state and every summary
 * worker's state load the very same code. Loading runs each file's chunk
 * under the per-call bounds; the first failure stops the load and is
 * reported as "<scripts.dir>/<file>:<line>: <message>".
 */
#pragma once

#include "scripting/script_state.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::scripting {

struct ScriptFile {
    std::string name;  // relative to the scripts dir: "hooks/redact.lua", "summarize.lua"
    std::string text;
};

struct ScriptSet {
    std::string dir;
    std::vector<ScriptFile> files;
};

// Reads the set; a missing dir (or hooks/ folder) is an empty set, an unreadable file an error.
std::optional<std::string> read_scripts(const std::string& dir, ScriptSet& out);
// Runs every file of `set` in `state`.
std::optional<std::string> load_scripts(ScriptState& state, const ScriptSet& set);

}  // namespace mnemo::scripting
