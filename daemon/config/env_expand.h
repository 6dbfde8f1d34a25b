// ${VAR} and ${VAR:-default} substitution in config strings.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mnemo::config {

struct EnvError {
    std::string message;  // e.g. "environment variable SHOP_TOKEN is not set (...)"
};

// Returns the variable's value, nullopt when unset. Tests pass a fake.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

EnvLookup process_environment();

// Replaces every ${NAME} and ${NAME:-default} (default used when NAME is
// unset or empty, as in the shell). A '$' not followed by '{' stays as is.
std::variant<std::string, EnvError> expand_env(std::string_view text, const EnvLookup& lookup);

}  // namespace mnemo::config
