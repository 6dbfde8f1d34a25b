/*
 * console/console_state.h -- one console connection's Lua state.
 *
 * A sandboxed ScriptState (SCRIPTING.md's allow-list and the `mnemo`
 * table) with the admin API as globals, `print` sending print frames, and
 * the functions of the .lua files in scripts.dir/admin loaded in name order. Globals
 * persist between chunks. Each chunk runs under scripts.instruction_limit
 * and scripts.memory_limit (no timeout: a console chunk may wait on
 * storage), pattern matching included, and stops at once when its
 * connection closes. Used only by its connection's chunk thread.
 */
#pragma once

#include "console/admin_call.h"
#include "scripting/script_state.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::console {

struct ChunkAnswer {
    bool ok = false;
    std::string payload;  // the result frame's JSON array, or the error frame's message
};

class ConsoleState {
public:
    using Printer = std::function<void(std::string line)>;

    ConsoleState(std::shared_ptr<const config::Config> config, Admin& admin, Printer print,
                 const std::atomic<bool>& cancel);
    const std::optional<std::string>& open_error() const { return open_error_; }

    // payload: "<chunkname>\n<Lua source>" (the chunk frame).
    ChunkAnswer run(const std::string& payload);
    // Every callable global, one per line, dotted for members of global tables; sorted.
    std::string names();

    void print(std::string line) { print_(std::move(line)); }

private:
    std::optional<std::string> install(Admin& admin);
    void load_admin_scripts(const std::string& scripts_dir);
    std::optional<std::string> run_source(const std::string& chunkname, bool keep_results);

    scripting::ScriptState lua_;
    Printer print_;
    const std::atomic<bool>& cancel_;
    std::optional<std::string> open_error_;
    // Held here, not in locals, because a Lua error unwinds with longjmp.
    std::string source_, results_;
    std::vector<std::string> names_;
};

}  // namespace mnemo::console
