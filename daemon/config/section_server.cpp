// server: and auth: sections.
#include <algorithm>

#include "config/listen.h"
#include "config/load_state.h"

namespace mnemo::config {
namespace {

void read_listen(LoadState& state, const YAML::Node& node, const Place& place) {
    std::vector<Listen> listeners;
    std::vector<Place> places;
    bool valid = true;
    for_each_item(state.ctx, node, place, [&](const YAML::Node& item, const Place& at) {
        auto text = read_scalar(state.ctx, item, at, "a listener like \"127.0.0.1:7420\"");
        if (!text) return void(valid = false);
        auto parsed = parse_listen(*text);
        if (auto* error = std::get_if<std::string>(&parsed)) {
            state.ctx.error(at, *error);
            return void(valid = false);
        }
        listeners.push_back(std::get<Listen>(std::move(parsed)));
        places.push_back(at);
    });
    if (!valid || !node.IsSequence()) return;
    if (listeners.empty()) {
        state.ctx.error(place, "expected at least one listener, e.g. [\"127.0.0.1:7420\"]");
        return;
    }
    state.config.server.listen = std::move(listeners);
    for (const Place& at : places) state.config.key_positions[at.path] = {at.mark.line, at.mark.column};
    state.listen_places = std::move(places);
}

// "0600": a leading zero and three octal digits, so YAML never reads it as a decimal number.
void read_socket_mode(LoadState& state, const YAML::Node& node, const Place& place) {
    auto text = read_scalar(state.ctx, node, place, "an octal mode string like \"0600\"");
    if (!text) return;
    bool octal = text->size() == 4 && (*text)[0] == '0' &&
                 std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '7'; });
    if (!octal) {
        state.ctx.error(place, "expected an octal mode string like \"0600\" or \"0660\", got \"" + *text + "\"");
        return;
    }
    state.config.server.admin_socket_mode = static_cast<uint32_t>(std::stoul(*text, nullptr, 8));
}

void read_non_empty_path(LoadState& state, const YAML::Node& node, const Place& place, std::string& target) {
    auto text = read_scalar(state.ctx, node, place, "a path");
    if (!text) return;
    if (text->empty()) return state.ctx.error(place, "expected a path, got an empty string");
    target = std::move(*text);
}

}  // namespace

FieldReader token_list_field(Context& ctx, std::vector<std::string>& target) {
    return [&ctx, &target](const YAML::Node& node, const Place& place) {
        auto tokens = read_string_list(ctx, node, place);
        if (!tokens) return;
        for (size_t i = 0; i < tokens->size(); ++i) {
            if ((*tokens)[i].empty()) {
                return ctx.error(place_of(node[i], item_path(place.path, i), place.mark),
                                 "expected a non-empty token (is its environment variable empty?)");
            }
        }
        target = std::move(*tokens);
    };
}

std::vector<Field> server_fields(LoadState& state) {
    Context& ctx = state.ctx;
    ServerConfig& server = state.config.server;
    using Ui = ServerConfig::Ui;
    return {
        {"listen", [&state](const YAML::Node& n, const Place& p) { read_listen(state, n, p); }},
        {"admin_socket",
         [&state](const YAML::Node& n, const Place& p) {
             read_non_empty_path(state, n, p, state.config.server.admin_socket);
         }},
        {"admin_socket_mode", [&state](const YAML::Node& n, const Place& p) { read_socket_mode(state, n, p); }},
        {"admin_group", string_field(ctx, server.admin_group)},
        {"max_body_bytes", size_field(ctx, server.max_body_bytes)},
        {"max_connections", number_field(ctx, server.max_connections, 1)},
        {"idle_timeout", duration_field(ctx, server.idle_timeout_us, true)},
        {"request_timeout", duration_field(ctx, server.request_timeout_us, true)},
        {"output_limit", size_field(ctx, server.output_limit)},
        {"send_timeout", duration_field(ctx, server.send_timeout_us, true)},
        {"drain_timeout", duration_field(ctx, server.drain_timeout_us)},
        {"mcp_allowed_origins",
         [&ctx, &server](const YAML::Node& n, const Place& p) {
             if (auto origins = read_string_list(ctx, n, p)) server.mcp_allowed_origins = std::move(*origins);
         }},
        {"ui", enum_field(ctx, server.ui, Choices<Ui>{{"auto", Ui::Auto}, {"true", Ui::On}, {"false", Ui::Off}})},
    };
}

std::vector<Field> auth_fields(LoadState& state) {
    Context& ctx = state.ctx;
    AuthConfig& auth = state.config.auth;
    using R = AuthConfig::Required;
    FieldReader required =
        enum_field(ctx, auth.required, Choices<R>{{"auto", R::Auto}, {"true", R::Yes}, {"false", R::No}});
    return {
        {"required",
         [&state, required](const YAML::Node& n, const Place& p) {
             state.auth_required_place = p;
             required(n, p);
         }},
        {"admin_tokens", token_list_field(ctx, auth.admin_tokens)},
        {"allow_insecure", bool_field(ctx, auth.allow_insecure)},
    };
}

}  // namespace mnemo::config
