#include "api/web_console.h"

#include "api/api.h"
#include "api/embedded_file.h"

#include <fmt/format.h>

extern const mnemo::api::EmbeddedFile mnemo_console_files[];
extern const unsigned long mnemo_console_files_count;

namespace mnemo::api {
namespace {

constexpr std::string_view kPrefix = "/ui/";

// Only this daemon's own files and API; no inline script or style, no eval,
// no plugins, no framing, no forms posted elsewhere.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

std::string_view content_type(std::string_view path) {
    auto ends = [&](std::string_view suffix) { return path.ends_with(suffix); };
    if (ends(".html")) return "text/html; charset=utf-8";
    if (ends(".css")) return "text/css; charset=utf-8";
    if (ends(".js")) return "text/javascript; charset=utf-8";
    if (ends(".svg")) return "image/svg+xml";
    if (ends(".png")) return "image/png";
    return "text/plain; charset=utf-8";
}

const EmbeddedFile* find_file(std::string_view path) {
    for (unsigned long i = 0; i < mnemo_console_files_count; ++i) {
        if (mnemo_console_files[i].path == path) return &mnemo_console_files[i];
    }
    return nullptr;
}

net::Response error(int status, std::string_view code, std::string_view message) {
    return net::Response{status, {}, error_body(code, message, "{}"), "application/json"};
}

bool served_here(const config::ServerConfig& server, const net::Request& request) {
    using Ui = config::ServerConfig::Ui;
    return server.ui == Ui::On || (server.ui == Ui::Auto && request.loopback);
}

}  // namespace

bool is_console_path(std::string_view path) {
    return path == "/ui" || path.starts_with(kPrefix);
}

net::Response console_response(const config::ServerConfig& server, const net::Request& request) {
    if (!served_here(server, request)) {
        return error(404, "not_found",
                     server.ui == config::ServerConfig::Ui::Off
                         ? "the web console is off (server.ui: false)"
                         : "the web console is served on loopback addresses only; set server.ui: true to serve it "
                           "on this address too");
    }
    if (request.method != "GET" && request.method != "HEAD") {
        net::Response refused = error(405, "method_not_allowed",
                                      fmt::format("{} is not allowed on {}; use GET", request.method, request.path));
        refused.headers.emplace_back("Allow", "GET, HEAD");
        return refused;
    }
    if (request.path == "/ui") return net::Response{301, {{"Location", std::string(kPrefix)}}, "", "text/plain"};
    std::string_view name = std::string_view(request.path).substr(kPrefix.size());
    if (name.empty()) name = "index.html";
    const EmbeddedFile* file = find_file(name);
    if (file == nullptr) return error(404, "not_found", fmt::format("no console file {}", request.path));
    net::Response response{200, {}, std::string(file->data, file->size), std::string(content_type(name))};
    response.headers.emplace_back("Content-Security-Policy", std::string(kContentSecurityPolicy));
    response.headers.emplace_back("X-Content-Type-Options", "nosniff");
    response.headers.emplace_back("X-Frame-Options", "DENY");
    response.headers.emplace_back("Referrer-Policy", "no-referrer");
    response.headers.emplace_back("Cache-Control", "no-cache");
    return response;
}

}  // namespace mnemo::api
