// limits:, ttl:, sweep: and recovery: sections (limits and ttl are reused
// for the per-app overrides).
#include "config/load_state.h"

namespace mnemo::config {

std::vector<Field> limits_fields(Context& ctx, LimitsConfig& limits) {
    return {
        {"event_limit", number_field(ctx, limits.event_limit, 0)},
        {"max_event_bytes", size_field(ctx, limits.max_event_bytes)},
        {"max_batch_events", number_field(ctx, limits.max_batch_events, 1)},
        {"max_state_bytes", size_field(ctx, limits.max_state_bytes)},
    };
}

std::vector<Field> global_limits_fields(Context& ctx, LimitsConfig& limits) {
    std::vector<Field> fields = limits_fields(ctx, limits);
    fields.push_back({"max_mcp_sessions", number_field(ctx, limits.max_mcp_sessions, 1)});
    return fields;
}

std::vector<Field> ttl_fields(Context& ctx, TtlConfig& ttl) {
    return {
        {"session", ttl_field(ctx, ttl.session_us)},
        {"app_state", ttl_field(ctx, ttl.app_state_us)},
        {"user_state", ttl_field(ctx, ttl.user_state_us)},
    };
}

std::vector<Field> sweep_fields(Context& ctx, SweepConfig& sweep) {
    return {
        {"interval", duration_field(ctx, sweep.interval_us, true)},
        {"budget", duration_field(ctx, sweep.budget_us, true)},
        {"batch", number_field(ctx, sweep.batch, 1)},
        {"purge_after", duration_field(ctx, sweep.purge_after_us)},
        {"prune_lanes_after", duration_field(ctx, sweep.prune_lanes_after_us)},
        {"finalize_retries", number_field(ctx, sweep.finalize_retries, 0)},
    };
}

std::vector<Field> recovery_fields(Context& ctx, RecoveryConfig& recovery) {
    return {
        {"resume_window", duration_field(ctx, recovery.resume_window_us)},
        {"stuck_after_restarts", number_field(ctx, recovery.stuck_after_restarts, 1)},
    };
}

}  // namespace mnemo::config
