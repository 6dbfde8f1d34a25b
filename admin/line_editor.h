/*
 * line_editor.h -- libedit behind the interactive console.
 *
 * Owns the terminal side of input: the prompt, line editing, the history
 * (loaded from and appended to history_file.h's file) and tab completion
 * with the names a provider hands out when asked. libedit keeps its state in
 * globals, so there is one LineEditor per process.
 */
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::admin {

class LineEditor {
public:
    using NamesProvider = std::function<std::vector<std::string>()>;

    // history_path empty: history in memory only.
    LineEditor(std::string history_path, NamesProvider names);
    ~LineEditor();
    LineEditor(const LineEditor&) = delete;
    LineEditor& operator=(const LineEditor&) = delete;

    // One line without its newline; nullopt at end of input (Ctrl-D).
    std::optional<std::string> read_line(const std::string& prompt);
    // Adds a typed line to the history and its file (blank and repeated lines are skipped).
    void remember(const std::string& line);

private:
    std::string history_path_;
    std::string last_line_;
};

}  // namespace mnemo::admin
