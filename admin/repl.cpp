#include "repl.h"

#include "chunk_shape.h"
#include "line_editor.h"

#include <simdjson.h>

#include <optional>
#include <vector>

namespace mnemo::admin {
namespace {

constexpr const char* kPrompt = "mnemo> ";
constexpr const char* kContinuationPrompt = "mnemo>> ";
constexpr const char* kChunkName = "=console";

std::string hello_field(simdjson::dom::element hello, const char* key) {
    std::string_view value;
    if (hello[key].get(value) != simdjson::SUCCESS) return "?";
    return std::string(value);
}

// The server's names, asked for once per chunk run (a chunk may define globals).
class NamesCache {
public:
    explicit NamesCache(ConsoleClient& client) : client_(client) {}
    std::vector<std::string> get() {
        if (!names_) names_ = client_.names().value_or(std::vector<std::string>{});
        return *names_;
    }
    void forget() { names_.reset(); }

private:
    ConsoleClient& client_;
    std::optional<std::vector<std::string>> names_;
};

}  // namespace

std::string banner(const std::string& hello_json, const std::string& socket_path) {
    simdjson::dom::parser parser;
    simdjson::dom::element hello;
    std::string who = "mnemod";
    if (parser.parse(simdjson::padded_string(hello_json)).get(hello) == simdjson::SUCCESS && hello.is_object()) {
        who += " " + hello_field(hello, "version") + " (storage: " + hello_field(hello, "plugin") + ")";
    }
    return who + " on " + socket_path;
}

int run_repl(ConsoleClient& client, const std::string& hello_json, const ReplSettings& settings) {
    std::fprintf(settings.output.out, "%s\nhelp() lists the admin API; Ctrl-D leaves.\n",
                 banner(hello_json, client.path()).c_str());
    NamesCache names(client);
    LineEditor editor(settings.history_path, [&names] { return names.get(); });
    ChunkAccumulator chunk;
    while (auto line = editor.read_line(chunk.continuing() ? kContinuationPrompt : kPrompt)) {
        editor.remember(*line);
        auto source = chunk.add_line(*line);
        if (!source) continue;
        int code = run_chunk(client, kChunkName, *source, settings.output);
        if (code == kExitUnreachable) return code;
        names.forget();
    }
    std::fputc('\n', settings.output.out);
    return kExitOk;
}

}  // namespace mnemo::admin
