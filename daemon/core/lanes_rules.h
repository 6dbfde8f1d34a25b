/*
 * core/lanes_rules.h -- the lane rules as pure functions (internal to
 * core/lanes*.cpp, and unit-tested on their own): resolve's decision order
 * and the lane row each kind of move leaves behind.
 */
#pragma once

#include "config/config.h"
#include "core/reset_policy.h"
#include "storage/rows.h"

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::core {

// What resolve found: the lane row and whether its current session is live.
struct LaneFacts {
    const storage::LaneRow* lane = nullptr;  // null: the lane does not exist
    bool session_live = false;
    bool session_had_events = false;
};

struct ResolveContext {
    bool force_new = false;
    std::string_view platform, chat_type;  // the request's, else the lane's; "" when none
    int64_t now_us = 0;
    const config::ResetConfig* reset = nullptr;
    const date::time_zone* zone = nullptr;
};

enum class ResolveMove {
    Create,     // the lane is absent: a new lane and session
    Keep,       // the same session, updated_at bumped
    Fresh,      // force_new, or the session is gone: a new session, not an automatic reset
    AutoReset,  // suspended, idle or daily: a new session with auto_reset_reason
};

struct ResolveDecision {
    ResolveMove move = ResolveMove::Keep;
    std::optional<std::string> auto_reset_reason;  // with AutoReset: suspended | idle | daily
};

// docs/api.md's order: absent or force_new; suspended; resume_pending; reset policy; else keep.
ResolveDecision decide_resolve(const LaneFacts& facts, const ResolveContext& context);

// The row of a brand-new lane: every flag false, reasons null.
storage::LaneRow fresh_lane_row(std::string app, std::string lane, std::string user, std::string session_id,
                                std::string platform, std::string chat_type, int64_t now_us);

// `old` moved to session_id: suspension and resume state cleared, is_fresh_reset set,
// was_auto_reset and auto_reset_reason from `auto_reset_reason`.
storage::LaneRow moved_lane_row(const storage::LaneRow& old, std::string session_id, bool had_activity,
                                const std::optional<std::string>& auto_reset_reason, int64_t now_us);

// docs/api.md's closed sets.
bool valid_chat_type(std::string_view chat_type);   // dm | group | channel | thread
bool valid_resume_reason(std::string_view reason);  // restart_timeout | shutdown_timeout | restart_interrupted

}  // namespace mnemo::core
