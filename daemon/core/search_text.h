/*
 * core/search_text.h -- what of an event is searchable.
 *
 * Owns the one definition, shared by every backend, of an event's search
 * text (mnemo_event.search_text): the strings anywhere inside `content`
 * (values only: no keys, no JSON punctuation), each tool call's name, the
 * strings inside its arguments and its result_summary, and each media
 * item's path. Pieces are joined by newlines so a phrase never spans two
 * of them.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::core {

// Raw JSON of the event's fields (absent: nullopt). Invalid JSON yields "".
std::string search_text(std::optional<std::string_view> content_json, std::optional<std::string_view> tool_calls_json,
                        std::optional<std::string_view> media_json);

}  // namespace mnemo::core
