/*
 * core/memory_text.h -- the rules of a memory's names and text that every
 * door of mnemod applies alike (docs/memories.md Writing).
 *
 * Owns the memory id rule (the name rules, and `search` reserved for the
 * recall route), the namespace rule (0..128 bytes of [A-Za-z0-9._:@-]) and
 * the folding that decides whether two memory texts are the same for
 * dedupe. They live in core, beside the search rules they fold with, so
 * that the import of an export file (core/export_import.h) checks and folds
 * a memory exactly as the memory routes do.
 */
#pragma once

#include "core/errors.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mnemo::core {

inline constexpr std::string_view kReservedMemoryId = "search";  // the recall route's segment
inline constexpr size_t kMaxNamespaceBytes = 128;

// `what` prefixes the message, e.g. "memories[0].namespace".
std::optional<Error> check_memory_id(std::string_view id, std::string_view what);
std::optional<Error> check_namespace(std::string_view name_space, std::string_view what);

// A vector number as every door reads it: finite, and still finite as a
// 32-bit float. The bound is FLT_MAX plus half its ulp, the least magnitude
// that rounds to infinity: FLT_MAX's shortest text (3.4028235e+38) reads as a
// double above FLT_MAX that still rounds to it.
inline bool finite_as_float(double number) {
    return number > -0x1.ffffffp+127 && number < 0x1.ffffffp+127;
}

// The text as dedupe compares it: the search rules' case and accent folding,
// each run of Unicode white space as one space, trimmed.
std::string fold_memory_text(std::string_view text);

}  // namespace mnemo::core
