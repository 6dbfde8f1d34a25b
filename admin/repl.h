/*
 * repl.h -- the interactive console: read lines, run chunks, print.
 *
 * Owns the loop of `mnemoctl` without -e/-f on a terminal: a banner from the
 * server's hello, the prompt `mnemo> ` (`mnemo>> ` while a chunk continues,
 * chunk_shape.h decides), each chunk run as "=console" through run_chunk.h,
 * completion names fetched from the server again after every chunk (a chunk
 * may define new globals). Lua errors are printed and the loop goes on; a
 * lost connection ends it.
 */
#pragma once

#include "console_client.h"
#include "run_chunk.h"

#include <string>

namespace mnemo::admin {

struct ReplSettings {
    std::string history_path;  // empty: no history file
    Output output;
};

// Returns the exit code: 0 at end of input, 2 when the connection was lost.
int run_repl(ConsoleClient& client, const std::string& hello_json, const ReplSettings& settings);

// "mnemod 0.1.0 (storage: sqlite) on PATH" from the hello frame's JSON.
std::string banner(const std::string& hello_json, const std::string& socket_path);

}  // namespace mnemo::admin
