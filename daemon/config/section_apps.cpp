// apps: per-app tokens and limits/ttl/memory overrides, merged over the global
// sections (read after them, so the order of sections in the file is free).
#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr size_t kMaxNameBytes = 128;

// The API's name rule (docs/api.md): 1..128 bytes of [A-Za-z0-9._:@-], not "." or "..".
bool is_valid_app_name(std::string_view name) {
    return !name.empty() && name.size() <= kMaxNameBytes && name != "." && name != ".." && has_only_name_chars(name);
}

void read_app(LoadState& state, const MapEntry& entry) {
    Context& ctx = state.ctx;
    if (!is_valid_app_name(entry.key)) {
        return ctx.error(entry.key_place,
                         "app name must be 1..128 bytes of letters, digits and . _ : @ - (and not \".\" or \"..\")");
    }
    AppConfig app{{}, state.config.limits, state.config.ttl, state.config.memory};
    std::optional<Place> capture_place;
    auto section = [&ctx](std::vector<Field> fields) {
        return [&ctx, fields = std::move(fields)](const YAML::Node& n, const Place& p) { read_map(ctx, n, p, fields); };
    };
    read_map(ctx, entry.value, entry.place,
             {{"tokens", token_list_field(ctx, app.tokens)},
              {"limits", section(limits_fields(ctx, app.limits))},
              {"ttl", section(ttl_fields(ctx, app.ttl))},
              {"memory", section(app_memory_fields(ctx, app.memory, capture_place))}});
    check_app_extractor(state, app.memory, capture_place, "apps." + entry.key + ".memory.capture");
    state.config.apps[entry.key] = std::move(app);
}

}  // namespace

bool has_only_name_chars(std::string_view name) {
    for (char c : name) {
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  std::string_view("._:@-").find(c) != std::string_view::npos;
        if (!ok) return false;
    }
    return true;
}

void read_apps(LoadState& state) {
    const Deferred& apps = state.apps;
    if (!apps.node.IsDefined() || apps.node.IsNull()) return;
    for_each_entry(state.ctx, apps.node, apps.place, [&state](const MapEntry& entry) { read_app(state, entry); });
}

}  // namespace mnemo::config
