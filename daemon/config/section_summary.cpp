// summary: section, including the trigger, which replaces the default whole
// (its reader serves memory.extract_trigger too).
#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr std::string_view kTriggerShape = "a map with exactly one of any: or all: holding events, tokens and/or idle";

void read_conditions(Context& ctx, const YAML::Node& node, const Place& place, SummaryTrigger& trigger) {
    auto positive = [&ctx](std::optional<int64_t>& target) {
        return [&ctx, &target](const YAML::Node& n, const Place& p) {
            if (auto number = read_number(ctx, n, p, 1, std::numeric_limits<int64_t>::max()))
                target = static_cast<int64_t>(*number);
        };
    };
    read_map(ctx, node, place,
             {{"events", positive(trigger.events)},
              {"tokens", positive(trigger.tokens)},
              {"idle", [&ctx, &trigger](const YAML::Node& n, const Place& p) {
                   if (auto idle = read_duration(ctx, n, p, true)) trigger.idle_us = *idle;
               }}});
    bool given = node.IsMap() && node.size() > 0;
    if (!given) ctx.error(place, "expected at least one of events, tokens, idle");
}

void read_trigger(Context& ctx, const YAML::Node& node, const Place& place, SummaryTrigger& target) {
    if (!node.IsMap() || node.size() != 1) {
        return ctx.error(place,
                         "expected " + std::string(kTriggerShape) + ", got " +
                             (node.IsMap() ? "a map of " + std::to_string(node.size()) + " keys" : describe(node)));
    }
    SummaryTrigger trigger;
    size_t errors_before = ctx.diagnostics.count();
    read_map(ctx, node, place,
             {{"any", [&](const YAML::Node& n, const Place& p) { read_conditions(ctx, n, p, trigger); }},
              {"all", [&](const YAML::Node& n, const Place& p) {
                   trigger.any = false;
                   read_conditions(ctx, n, p, trigger);
               }}});
    if (ctx.diagnostics.count() == errors_before) target = trigger;
}

}  // namespace

FieldReader trigger_field(Context& ctx, SummaryTrigger& target) {
    return [&ctx, &target](const YAML::Node& n, const Place& p) { read_trigger(ctx, n, p, target); };
}

std::vector<Field> summary_fields(LoadState& state) {
    Context& ctx = state.ctx;
    SummaryConfig& summary = state.config.summary;
    using S = SummaryConfig::Summarizer;
    FieldReader summarizer = enum_field(ctx, summary.summarizer, Choices<S>{{"lua", S::Lua}, {"command", S::Command}});
    FieldReader command = string_list_field(ctx, summary.command);
    return {
        {"enabled", bool_field(ctx, summary.enabled)},
        {"trigger", trigger_field(ctx, summary.trigger)},
        {"workers", number_field(ctx, summary.workers, 1, 256)},
        {"queue_size", number_field(ctx, summary.queue_size, 1)},
        {"summarizer",
         [&state, summarizer](const YAML::Node& n, const Place& p) {
             state.summarizer_place = p;
             summarizer(n, p);
         }},
        {"command",
         [&state, command](const YAML::Node& n, const Place& p) {
             state.command_place = p;
             command(n, p);
         }},
        {"timeout", duration_field(ctx, summary.timeout_us, true)},
        {"max_words", number_field(ctx, summary.max_words, 1)},
    };
}

}  // namespace mnemo::config
