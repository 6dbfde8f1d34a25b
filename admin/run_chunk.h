/*
 * run_chunk.h -- the one eval path of mnemoctl: -e, -f, stdin and every line
 * of the interactive console run a chunk through here.
 *
 * Owns what the user sees of a chunk and the exit codes of CONSOLE.md:
 * print frames on stdout as they arrive, the rendered result on stdout,
 * `error: <message>` on stderr; 0 ok, 1 Lua error (or the server refused
 * us), 2 the socket cannot be reached or the connection was lost.
 */
#pragma once

#include "console_client.h"
#include "render.h"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace mnemo::admin {

inline constexpr int kExitOk = 0;
inline constexpr int kExitLuaError = 1;
inline constexpr int kExitUnreachable = 2;

struct Output {
    std::FILE* out = stdout;
    std::FILE* err = stderr;
    OutputFormat format = OutputFormat::Text;
};

// Connects and waits for hello. On failure prints "mnemoctl: ..." and sets *exit_code.
// *hello_json receives the hello frame's payload when given.
std::optional<ConsoleClient> open_console(const std::string& socket_path, const Output& output, int* exit_code,
                                          std::string* hello_json = nullptr);

// Runs one chunk and prints what it produced; returns the exit code it stands for.
int run_chunk(ConsoleClient& client, std::string_view chunkname, std::string_view source, const Output& output);

}  // namespace mnemo::admin
