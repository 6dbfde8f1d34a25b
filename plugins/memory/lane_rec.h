// lane_rec.h -- one lane of an app as the memory backend keeps it, and the
// order lane lists use: (updated_at desc, lane desc), so a page costs
// O(log n + page).
#pragma once

#include "util.h"

#include <functional>
#include <set>
#include <utility>

namespace mnemo::memory {

struct LaneRec {
    std::string app, lane, user, session_id, platform, chat_type;
    int64_t created_at_us = 0, updated_at_us = 0;
    bool suspended = false, resume_pending = false;
    std::optional<std::string> resume_reason;
    bool was_auto_reset = false;
    std::optional<std::string> auto_reset_reason;
    bool reset_had_activity = false, is_fresh_reset = false;
    int64_t restart_count = 0, version = 0;
};

// (updated_at, lane) ordered newest first, then lane descending.
using LaneIndex = std::set<std::pair<int64_t, std::string>, std::greater<>>;

}  // namespace mnemo::memory
