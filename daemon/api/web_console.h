/*
 * api/web_console.h -- the web console at /ui/ (docs/operations.md "Web
 * console").
 *
 * Owns serving the console's static files (the repository's ui/ folder,
 * built into the binary by cmake/EmbedFiles.cmake) with the headers that
 * keep them safe: a Content-Security-Policy that allows only the daemon's
 * own scripts, styles and API (no inline script, no eval, no framing) and
 * nosniff. The console itself calls only the public API, with the token
 * its user types; nothing here reads storage. Whether a request may see it
 * follows server.ui and the address the request came to.
 */
#pragma once

#include "config/config.h"
#include "net/http_message.h"

#include <string_view>

namespace mnemo::api {

// The route label of every console answer in the request metrics.
inline constexpr std::string_view kConsoleRoute = "/ui/";

// "/ui" or a path below "/ui/".
bool is_console_path(std::string_view path);

// The answer to a console request: a file, a redirect from /ui to /ui/, or
// an error in the API's JSON form.
net::Response console_response(const config::ServerConfig& server, const net::Request& request);

}  // namespace mnemo::api
