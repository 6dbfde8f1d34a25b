#pragma once
// Makes a unix socket path ready to bind: a socket file left by a crashed
// process is removed; a live one (something accepts connections) is refused.

#include <string>

namespace mnemo::net {

// True when the path is free (or was stale and is now removed); otherwise
// false with *error saying what occupies it.
bool prepare_unix_socket_path(const std::string& path, std::string* error);

}  // namespace mnemo::net
