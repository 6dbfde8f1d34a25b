#include "core/memory_text.h"

#include "core/ids.h"
#include "core/search_words.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

namespace words = search_words;

bool is_unicode_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool namespace_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == ':' || c == '@' || c == '-';
}

}  // namespace

std::optional<Error> check_memory_id(std::string_view id, std::string_view what) {
    if (!valid_name(id)) return invalid(fmt::format("{}: memory id {}", what, name_problem(id)));
    if (id == kReservedMemoryId)
        return invalid(fmt::format("{}: 'search' is reserved (it names the recall route); choose another id", what));
    return std::nullopt;
}

std::optional<Error> check_namespace(std::string_view name_space, std::string_view what) {
    if (name_space.size() > kMaxNamespaceBytes) {
        return invalid(
            fmt::format("{}: {} bytes is over {} bytes for a namespace", what, name_space.size(), kMaxNamespaceBytes));
    }
    for (char c : name_space)
        if (!namespace_char(c))
            return invalid(fmt::format("{}: '{}' has a character outside [A-Za-z0-9._:@-]", what, name_space));
    return std::nullopt;
}

std::string fold_memory_text(std::string_view text) {
    std::string collapsed;
    collapsed.reserve(text.size());
    bool pending_space = false;
    for (size_t pos = 0; pos < text.size();) {
        auto cp = words::decode(text, pos);
        pos += cp.length;
        if (is_unicode_space(cp.value)) {
            pending_space = !collapsed.empty();
            continue;
        }
        if (pending_space) collapsed.push_back(' ');
        pending_space = false;
        words::append_utf8(collapsed, cp.value);
    }
    return words::fold(collapsed);
}

}  // namespace mnemo::core
