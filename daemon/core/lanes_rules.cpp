#include "core/lanes_rules.h"

#include <array>

namespace mnemo::core {

ResolveDecision decide_resolve(const LaneFacts& facts, const ResolveContext& context) {
    if (facts.lane == nullptr) return {ResolveMove::Create, std::nullopt};
    if (context.force_new) return {ResolveMove::Fresh, std::nullopt};
    const storage::LaneRow& lane = *facts.lane;
    if (lane.suspended) return {ResolveMove::AutoReset, "suspended"};
    const auto& policy = policy_for(*context.reset, context.platform, context.chat_type);
    if (!lane.resume_pending) {
        if (auto due = reset_due(policy, lane.updated_at_us, context.now_us, context.zone)) {
            return {ResolveMove::AutoReset, std::string(reset_reason_name(*due))};
        }
    }
    // Even a resume_pending lane cannot keep a session that expired or was deleted.
    if (!facts.session_live) return {ResolveMove::Fresh, std::nullopt};
    return {ResolveMove::Keep, std::nullopt};
}

storage::LaneRow fresh_lane_row(std::string app, std::string lane, std::string user, std::string session_id,
                                std::string platform, std::string chat_type, int64_t now_us) {
    storage::LaneRow row;
    row.app = std::move(app);
    row.lane = std::move(lane);
    row.user = std::move(user);
    row.session_id = std::move(session_id);
    row.platform = std::move(platform);
    row.chat_type = std::move(chat_type);
    row.created_at_us = now_us;
    row.updated_at_us = now_us;
    return row;
}

storage::LaneRow moved_lane_row(const storage::LaneRow& old, std::string session_id, bool had_activity,
                                const std::optional<std::string>& auto_reset_reason, int64_t now_us) {
    storage::LaneRow row = old;
    row.session_id = std::move(session_id);
    row.updated_at_us = now_us;
    row.suspended = false;
    row.resume_pending = false;
    row.resume_reason.reset();
    row.was_auto_reset = auto_reset_reason.has_value();
    row.auto_reset_reason = auto_reset_reason;
    row.reset_had_activity = had_activity;
    row.is_fresh_reset = true;
    row.restart_count = 0;
    return row;
}

bool valid_chat_type(std::string_view chat_type) {
    constexpr std::array<std::string_view, 4> kTypes = {"dm", "group", "channel", "thread"};
    for (auto type : kTypes) {
        if (type == chat_type) return true;
    }
    return false;
}

bool valid_resume_reason(std::string_view reason) {
    return reason == "restart_timeout" || reason == "shutdown_timeout" || reason == "restart_interrupted";
}

}  // namespace mnemo::core
