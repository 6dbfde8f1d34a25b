#include "config/env_expand.h"

#include <cstdlib>

namespace mnemo::config {
namespace {

bool is_name_char(char c, bool first) {
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    return alpha || (!first && c >= '0' && c <= '9');
}

bool is_valid_name(std::string_view name) {
    if (name.empty()) return false;
    for (size_t i = 0; i < name.size(); ++i) {
        if (!is_name_char(name[i], i == 0)) return false;
    }
    return true;
}

// `reference` is the text between "${" and "}".
std::variant<std::string, EnvError> resolve(std::string_view reference, const EnvLookup& lookup) {
    size_t split = reference.find(":-");
    std::string_view name = reference.substr(0, split);
    if (!is_valid_name(name)) {
        return EnvError{"\"${" + std::string(reference) +
                        "}\" is not a valid reference; write ${NAME} or ${NAME:-default}"};
    }
    std::optional<std::string> value = lookup(std::string(name));
    if (split == std::string_view::npos) {
        if (value) return *value;
        return EnvError{"environment variable " + std::string(name) + " is not set (set it, or write ${" +
                        std::string(name) + ":-default})"};
    }
    if (value && !value->empty()) return *value;
    return std::string(reference.substr(split + 2));
}

}  // namespace

EnvLookup process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

std::variant<std::string, EnvError> expand_env(std::string_view text, const EnvLookup& lookup) {
    std::string out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t start = text.find("${", pos);
        if (start == std::string_view::npos) break;
        size_t end = text.find('}', start + 2);
        if (end == std::string_view::npos) {
            return EnvError{"unterminated \"${\" (write ${NAME} or ${NAME:-default})"};
        }
        auto value = resolve(text.substr(start + 2, end - start - 2), lookup);
        if (auto* error = std::get_if<EnvError>(&value)) return *error;
        out.append(text.substr(pos, start - pos)).append(std::get<std::string>(value));
        pos = end + 1;
    }
    out.append(text.substr(pos));
    return out;
}

}  // namespace mnemo::config
