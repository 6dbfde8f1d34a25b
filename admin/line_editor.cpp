#include "line_editor.h"

#include "completion.h"
#include "history_file.h"

#include <editline/readline.h>

#include <cstdlib>
#include <cstring>

namespace mnemo::admin {
namespace {

// readline's completion callbacks take no user data: the one editor's provider and
// the matches of the word being completed live here.
LineEditor::NamesProvider g_names;
std::vector<std::string> g_matches;

char* next_match(const char* /*word*/, int state) {
    static size_t index = 0;
    if (state == 0) index = 0;
    if (index >= g_matches.size()) return nullptr;
    return ::strdup(g_matches[index++].c_str());
}

char** complete_word(const char* word, int /*start*/, int /*end*/) {
    rl_attempted_completion_over = 1;  // no file-name completion when no name matches
    g_matches = g_names ? completions(word, g_names()) : std::vector<std::string>{};
    if (g_matches.empty()) return nullptr;
    return rl_completion_matches(word, next_match);
}

}  // namespace

LineEditor::LineEditor(std::string history_path, NamesProvider names) : history_path_(std::move(history_path)) {
    g_names = std::move(names);
    rl_readline_name = "mnemoctl";
    rl_initialize();
    rl_attempted_completion_function = complete_word;
    rl_basic_word_break_characters = kWordBreakCharacters;
    rl_completion_append_character = '\0';  // a name is usually followed by ( or { or .
    using_history();
    if (history_path_.empty()) return;
    auto lines = load_history(history_path_);
    for (const auto& line : lines) add_history(line.c_str());
    if (!lines.empty()) last_line_ = lines.back();
}

LineEditor::~LineEditor() {
    g_names = nullptr;
    g_matches.clear();
}

std::optional<std::string> LineEditor::read_line(const std::string& prompt) {
    char* line = readline(prompt.c_str());
    if (line == nullptr) return std::nullopt;
    std::string text(line);
    std::free(line);
    return text;
}

void LineEditor::remember(const std::string& line) {
    if (!worth_keeping(line, last_line_)) return;
    add_history(line.c_str());
    last_line_ = line;
    if (!history_path_.empty()) append_history_line(history_path_, line);
}

}  // namespace mnemo::admin
