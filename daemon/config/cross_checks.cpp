// Rules that involve more than one key, checked once the whole file is read.
#include "config/load_state.h"

namespace mnemo::config {
namespace {

void check_insecure_listeners(LoadState& state) {
    const Config& config = state.config;
    if (config.auth.required != AuthConfig::Required::No || config.auth.allow_insecure) return;
    for (size_t i = 0; i < config.server.listen.size(); ++i) {
        const Listen& listen = config.server.listen[i];
        if (listen.loopback) continue;
        Place place = state.auth_required_place.value_or(state.listen_places.at(i));
        state.ctx.error(place, "auth is off but listener \"" + listen.text +
                                   "\" is not loopback, so anyone who can reach it can read every app; set "
                                   "auth.required: true (with tokens), or auth.allow_insecure: true to accept this");
    }
}

void check_summary_command(LoadState& state) {
    const SummaryConfig& summary = state.config.summary;
    if (summary.summarizer != SummaryConfig::Summarizer::Command || !summary.command.empty()) return;
    Place place = state.command_place.value_or(state.summarizer_place.value_or(Place{}));
    place.path = "summary.command";
    state.ctx.error(place,
                    "expected a non-empty list (the summarizer's argv, e.g. [\"/usr/bin/summarize\", \"--json\"]) "
                    "when summary.summarizer is command");
}

}  // namespace

void check_cross_section_rules(LoadState& state) {
    check_insecure_listeners(state);
    check_summary_command(state);
    check_memory_rules(state);
}

}  // namespace mnemo::config
