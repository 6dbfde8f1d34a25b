// reset: section: the time zone, the default lane reset policy and the
// overrides, each override's policy merged over the default.
#include <filesystem>

#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr const char* kZoneinfoDir = "/usr/share/zoneinfo";

bool zone_exists(const std::string& name) {
    if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) return false;
    std::error_code ignored;
    return std::filesystem::is_regular_file(std::filesystem::path(kZoneinfoDir) / name, ignored);
}

void read_timezone(LoadState& state, const YAML::Node& node, const Place& place) {
    auto text = read_scalar(state.ctx, node, place, "local or an IANA time zone name");
    if (!text) return;
    if (*text != "local" && !zone_exists(*text)) {
        return state.ctx.error(place, "unknown time zone \"" + *text +
                                          "\" (expected local or an IANA name such as Europe/Berlin, as found under " +
                                          kZoneinfoDir + ")");
    }
    state.config.reset.timezone = std::move(*text);
}

std::vector<Field> policy_fields(Context& ctx, ResetPolicy& policy) {
    using M = ResetPolicy::Mode;
    return {
        {"mode", enum_field(ctx, policy.mode,
                            Choices<M>{{"none", M::None}, {"idle", M::Idle}, {"daily", M::Daily}, {"both", M::Both}})},
        {"at_hour", number_field(ctx, policy.at_hour, 0, 23)},
        {"idle_minutes", number_field(ctx, policy.idle_minutes, 1)},
        {"notify", bool_field(ctx, policy.notify)},
    };
}

std::vector<Field> match_fields(Context& ctx, ResetOverride& entry) {
    auto optional_text = [&ctx](std::optional<std::string>& target, std::string_view what) {
        return [&ctx, &target, what](const YAML::Node& n, const Place& p) {
            auto text = read_scalar(ctx, n, p, what);
            if (text && text->empty()) return ctx.error(p, "expected " + std::string(what) + ", got an empty string");
            if (text) target = std::move(*text);
        };
    };
    return {
        {"platform", optional_text(entry.platform, "a platform name")},
        {"chat_type",
         [&ctx, &entry](const YAML::Node& n, const Place& p) {
             auto kind = read_enum(
                 ctx, n, p,
                 Choices<std::string>{{"dm", "dm"}, {"group", "group"}, {"channel", "channel"}, {"thread", "thread"}});
             if (kind) entry.chat_type = std::move(*kind);
         }},
    };
}

void read_override(LoadState& state, const YAML::Node& node, const Place& place) {
    Context& ctx = state.ctx;
    ResetOverride entry{std::nullopt, std::nullopt, state.config.reset.default_policy};
    bool has_match = false, has_policy = false;
    read_map(ctx, node, place,
             {{"match",
               [&](const YAML::Node& n, const Place& p) {
                   has_match = true;
                   read_map(ctx, n, p, match_fields(ctx, entry));
                   if (!entry.platform && !entry.chat_type && (n.IsNull() || (n.IsMap() && n.size() == 0))) {
                       ctx.error(p, "expected at least one of platform, chat_type");
                   }
               }},
              {"policy", [&](const YAML::Node& n, const Place& p) {
                   has_policy = true;
                   read_map(ctx, n, p, policy_fields(ctx, entry.policy));
               }}});
    if (!node.IsMap()) return;
    if (!has_match) ctx.error(place, "expected a match: {platform, chat_type} map in each override");
    if (!has_policy) ctx.error(place, "expected a policy: {mode, at_hour, idle_minutes, notify} map in each override");
    state.config.reset.overrides.push_back(std::move(entry));
}

}  // namespace

std::vector<Field> reset_fields(LoadState& state) {
    Context& ctx = state.ctx;
    return {
        {"timezone", [&state](const YAML::Node& n, const Place& p) { read_timezone(state, n, p); }},
        {"default",
         [&ctx, &state](const YAML::Node& n, const Place& p) {
             read_map(ctx, n, p, policy_fields(ctx, state.config.reset.default_policy));
         }},
        {"overrides",
         [&state](const YAML::Node& n, const Place& p) {
             state.reset_overrides = {n, p};
         }},
    };
}

void read_reset_overrides(LoadState& state) {
    const Deferred& overrides = state.reset_overrides;
    if (!overrides.node.IsDefined() || overrides.node.IsNull()) return;
    for_each_item(state.ctx, overrides.node, overrides.place,
                  [&state](const YAML::Node& item, const Place& at) { read_override(state, item, at); });
}

}  // namespace mnemo::config
