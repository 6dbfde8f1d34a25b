// Parsing of server.listen entries: "host:port", "[::1]:port", "unix:/path".
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "config/config.h"

namespace mnemo::config {

// A unix path comes back as written; the loader makes it absolute.
std::variant<Listen, std::string /* error message */> parse_listen(std::string_view text);

}  // namespace mnemo::config
