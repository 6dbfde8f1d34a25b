/*
 * history_file.h -- the console's history file, ~/.mnemoctl_history.
 *
 * Owns its format and place: one entered line per line of plain text, read
 * once at start and appended to after every line, so two consoles open at
 * once both keep what was typed in them. Blank lines and a line equal to the
 * one before are not kept (as redis-cli and dnsdist do).
 */
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mnemo::admin {

// $HOME/.mnemoctl_history (the passwd entry's home when HOME is unset); nullopt without a home.
std::optional<std::string> default_history_path();

// The lines kept so far, oldest first; empty when the file does not exist yet.
std::vector<std::string> load_history(const std::string& path);

// The in-memory history's rule for keeping a line.
bool worth_keeping(const std::string& line, const std::string& previous);

// Appends one line; false when the file cannot be written (the console goes on without it).
bool append_history_line(const std::string& path, const std::string& line);

}  // namespace mnemo::admin
