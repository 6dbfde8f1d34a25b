// scripts: and log: sections, and the table of top-level sections.
#include "config/load_state.h"

namespace mnemo::config {

std::vector<Field> scripts_fields(LoadState& state) {
    Context& ctx = state.ctx;
    ScriptsConfig& scripts = state.config.scripts;
    return {
        {"dir",
         [&ctx, &state](const YAML::Node& n, const Place& p) {
             auto text = read_scalar(ctx, n, p, "a folder path");
             if (text && text->empty()) return ctx.error(p, "expected a folder path, got an empty string");
             if (text) state.scripts_dir_as_written = state.config.scripts.dir = std::move(*text);
         }},
        {"instruction_limit", number_field(ctx, scripts.instruction_limit, 1)},
        {"memory_limit", size_field(ctx, scripts.memory_limit)},
        {"timeout", duration_field(ctx, scripts.timeout_us, true)},
    };
}

std::vector<Field> log_fields(Context& ctx, LogConfig& log) {
    using F = LogConfig::Format;
    return {
        {"level",
         enum_field(
             ctx, log.level,
             Choices<std::string>{
                 {"trace", "trace"}, {"debug", "debug"}, {"info", "info"}, {"warn", "warn"}, {"error", "error"}})},
        {"format", enum_field(ctx, log.format, Choices<F>{{"text", F::Text}, {"json", F::Json}})},
    };
}

std::vector<Field> top_level_fields(LoadState& state) {
    Context& ctx = state.ctx;
    Config& config = state.config;
    auto section = [&ctx](std::vector<Field> fields) {
        return [&ctx, fields = std::move(fields)](const YAML::Node& n, const Place& p) { read_map(ctx, n, p, fields); };
    };
    return {
        {"server", section(server_fields(state))},
        {"auth", section(auth_fields(state))},
        {"storage", section(storage_fields(state))},
        {"limits", section(global_limits_fields(ctx, config.limits))},
        {"ttl", section(ttl_fields(ctx, config.ttl))},
        {"sweep", section(sweep_fields(ctx, config.sweep))},
        {"reset", section(reset_fields(state))},
        {"recovery", section(recovery_fields(ctx, config.recovery))},
        {"summary", section(summary_fields(state))},
        {"memory",
         [&state, &ctx, memory = memory_fields(state)](const YAML::Node& n, const Place& p) {
             state.memory_places.section = p;
             read_map(ctx, n, p, memory);
         }},
        {"scripts", section(scripts_fields(state))},
        {"apps",
         [&state](const YAML::Node& n, const Place& p) {
             state.apps = {n, p};
         }},
        {"log", section(log_fields(ctx, config.log))},
    };
}

}  // namespace mnemo::config
