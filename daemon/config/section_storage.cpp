// storage: section (the plugin choice; its options are in storage_options.cpp).
#include "config/load_state.h"

namespace mnemo::config {
namespace {

bool is_builtin_plugin(std::string_view name) {
    return name == "memory" || name == "sqlite" || name == "mysql" || name == "postgres";
}

void read_plugin(LoadState& state, const YAML::Node& node, const Place& place) {
    auto text = read_scalar(state.ctx, node, place, "memory, sqlite, mysql, postgres or a path to a .so file");
    if (!text) return;
    if (!is_builtin_plugin(*text) && !(text->size() > 3 && text->ends_with(".so"))) {
        state.ctx.error(place,
                        "expected memory, sqlite, mysql, postgres or a path to a .so file, got \"" + *text + "\"");
        state.config.storage.plugin.clear();  // so the options are not checked against the wrong plugin
        return;
    }
    state.config.storage.plugin = std::move(*text);
}

}  // namespace

std::vector<Field> storage_fields(LoadState& state) {
    StorageConfig& storage = state.config.storage;
    return {
        {"plugin", positioned(state, [&state](const YAML::Node& n, const Place& p) { read_plugin(state, n, p); })},
        {"plugin_dir", positioned(state, string_field(state.ctx, storage.plugin_dir))},
        {"soft_delete", positioned(state, bool_field(state.ctx, storage.soft_delete))},
        {"options",
         [&state](const YAML::Node& n, const Place& p) {
             state.storage_options = {n, p};
         }},
    };
}

}  // namespace mnemo::config
