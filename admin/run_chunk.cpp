#include "run_chunk.h"

#include <variant>

namespace mnemo::admin {
namespace {

void write_text(std::FILE* stream, std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fflush(stream);
}

void say(std::FILE* stream, std::string_view prefix, std::string_view message) {
    std::string line(prefix);
    line.append(message).push_back('\n');
    write_text(stream, line);
}

int print_result(std::string_view result_json, const Output& output) {
    auto rendered = render_result(result_json, output.format);
    if (auto* error = std::get_if<RenderError>(&rendered)) {
        say(output.err, "mnemoctl: ", error->message);
        return kExitLuaError;
    }
    write_text(output.out, std::get<std::string>(rendered));
    return kExitOk;
}

}  // namespace

std::optional<ConsoleClient> open_console(const std::string& socket_path, const Output& output, int* exit_code,
                                          std::string* hello_json) {
    std::string error;
    auto client = ConsoleClient::connect(socket_path, &error);
    if (!client) {
        say(output.err, "mnemoctl: ", error);
        *exit_code = kExitUnreachable;
        return std::nullopt;
    }
    std::string text;
    bool refused = false;
    if (!client->await_hello(&text, &refused)) {
        say(output.err, "mnemoctl: ", refused ? "mnemod on " + socket_path + " refused the console: " + text : text);
        *exit_code = refused ? kExitLuaError : kExitUnreachable;
        return std::nullopt;
    }
    if (hello_json) *hello_json = std::move(text);
    *exit_code = kExitOk;
    return client;
}

int run_chunk(ConsoleClient& client, std::string_view chunkname, std::string_view source, const Output& output) {
    auto on_print = [&output](std::string_view line) {
        std::string text(line);
        text.push_back('\n');
        write_text(output.out, text);
    };
    ChunkOutcome outcome = client.run(chunkname, source, on_print);
    switch (outcome.kind) {
        case ChunkOutcome::Kind::Result:
            return print_result(outcome.payload, output);
        case ChunkOutcome::Kind::Error:
            say(output.err, "error: ", outcome.payload);
            return kExitLuaError;
        case ChunkOutcome::Kind::Lost:
            break;
    }
    say(output.err, "mnemoctl: ", outcome.payload);
    return kExitUnreachable;
}

}  // namespace mnemo::admin
