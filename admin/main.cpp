// mnemoctl: the admin console of mnemod (docs/console.md, "Running mnemoctl").
// argv, where the chunk comes from (-e, -f, piped stdin, the terminal), exit codes.
#include "history_file.h"
#include "repl.h"
#include "run_chunk.h"
#include "socket_discovery.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

using namespace mnemo::admin;

struct Options {
    std::string socket;
    std::string config;
    std::string chunk;   // -e
    std::string script;  // -f
    bool has_chunk = false;
    bool has_script = false;
    bool json = false;
};

// A chunk to run once; empty name: the interactive console.
struct OneShot {
    std::string name;
    std::string source;
};

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// lua's loadfile skips a first line starting with '#' (a #! line); the newline stays
// so error line numbers match the file.
std::string without_shebang(std::string source) {
    if (!source.empty() && source[0] == '#') source.erase(0, source.find('\n'));
    return source;
}

// Where the chunk comes from; nullopt with *exit_code when a file cannot be read.
std::optional<OneShot> chunk_to_run(const Options& options, int* exit_code) {
    if (options.has_chunk) return OneShot{"=(command line)", options.chunk};
    if (options.has_script) {
        auto source = read_file(options.script);
        if (!source) {
            std::fprintf(stderr, "mnemoctl: cannot read %s: %s\n", options.script.c_str(), std::strerror(errno));
            *exit_code = kExitLuaError;
            return std::nullopt;
        }
        return OneShot{"@" + options.script, without_shebang(std::move(*source))};
    }
    if (!::isatty(STDIN_FILENO)) {  // `echo 'return stats()' | mnemoctl`
        std::ostringstream piped;
        piped << std::cin.rdbuf();
        return OneShot{"=stdin", piped.str()};
    }
    return OneShot{};
}

int run(const Options& options) {
    int code = kExitOk;
    auto chunk = chunk_to_run(options, &code);
    if (!chunk) return code;
    auto socket = find_admin_socket(default_discovery_inputs(options.socket, options.config));
    if (auto* error = std::get_if<DiscoveryError>(&socket)) {
        std::fprintf(stderr, "mnemoctl: %s\n", error->message.c_str());
        return kExitUnreachable;
    }
    Output output;
    output.format = options.json ? OutputFormat::Json : OutputFormat::Text;
    std::string hello;
    auto client = open_console(std::get<std::string>(socket), output, &code, &hello);
    if (!client) return code;
    if (!chunk->name.empty()) return run_chunk(*client, chunk->name, chunk->source, output);
    return run_repl(*client, hello, ReplSettings{default_history_path().value_or(""), output});
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"mnemoctl: the Lua admin console of a running mnemod"};
    Options options;
    cli.add_option("--socket", options.socket,
                   "the admin socket (default: server.admin_socket of the config, else ./run/admin.sock, "
                   "else /run/mnemod/admin.sock)")
        ->type_name("PATH");
    cli.add_option("-c,--config", options.config,
                   "the config whose server.admin_socket to use (default: ./mnemod.yaml, then "
                   "/etc/mnemod/mnemod.yaml)")
        ->type_name("FILE");
    auto* chunk =
        cli.add_option("-e", options.chunk, "run this Lua chunk, print what it returns, exit")->type_name("CHUNK");
    auto* script = cli.add_option("-f", options.script, "run this Lua file's chunk, print what it returns, exit")
                       ->type_name("FILE");
    script->excludes(chunk);
    cli.add_flag("--json", options.json, "print each returned value as one JSON document per line");
    cli.set_version_flag("--version", MNEMO_VERSION);
    CLI11_PARSE(cli, argc, argv);
    options.has_chunk = chunk->count() > 0;
    options.has_script = script->count() > 0;
    return run(options);
}
