/*
 * completion.h -- tab completion of the admin API names.
 *
 * Owns which names complete a word: the server's `names` answer (globals,
 * dotted for members: "sessions.list"), matched by prefix on the whole
 * dotted word left of the cursor, so `sessions.` offers sessions.list,
 * sessions.get, ... The line editor (line_editor.h) asks here.
 */
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mnemo::admin {

// The characters that end a completable word: everything but letters,
// digits, '_' and '.', so a dotted name is one word.
inline constexpr const char* kWordBreakCharacters = " \t\n\"\\'`@$><=;|&{(,)}[]+-*/%^~#:!?";

// The names that start with `word`, sorted, without repeats.
std::vector<std::string> completions(std::string_view word, const std::vector<std::string>& names);

}  // namespace mnemo::admin
