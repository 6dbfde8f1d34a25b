// Lane flags and reads: suspend, resume-pending, turn-complete, get, list.
#include "core/ids.h"
#include "core/lanes.h"
#include "core/lanes_render.h"
#include "core/lanes_rules.h"
#include "core/lanes_store.h"
#include "core/pending_write.h"
#include "core/service_util.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

using RowChange = std::function<void(storage::LaneRow& row)>;

// Changes an existing lane's flags (compare-and-set) and answers with the Lane.
// `change` returning without touching anything still writes: flag writes are rare and idempotent.
WriteSteps change_flags(const Env& env, const LaneRef& ref, RowChange change) {
    return update_lane(
        env, ref,
        [ref, change = std::move(change)](const std::optional<LaneSnapshot>& current) -> LanePlan {
            if (!current) return {lane_not_found(ref), {}};
            LaneWrite write;
            write.row = current->lane;
            write.expected_version = current->lane.version;
            change(write.row);
            return {std::nullopt, std::move(write)};
        },
        [](LaneUpdate& update) {
            if (update.error) return Outcome::fail(std::move(*update.error));
            return Outcome::ok(lane_json(update.lane));
        });
}

std::string lanes_page_json(std::vector<storage::LaneRow>& rows, int64_t limit) {
    return page_json(
        "lanes", rows, limit, [](JsonWriter& w, const storage::LaneRow& row) { write_lane(w, row); },
        [](const storage::LaneRow& last) { return time_name_token(last.updated_at_us, last.lane); });
}

}  // namespace

WriteSteps begin_suspend_lane(const Env& env, const LaneRef& ref) {
    return change_flags(env, ref, [](storage::LaneRow& row) {
        row.suspended = true;
        row.resume_pending = false;  // the next resolve starts over; nothing is left to resume
        row.resume_reason.reset();
    });
}

Outcome suspend_lane(const Env& env, const LaneRef& ref) {
    return run_steps(begin_suspend_lane(env, ref)());
}

WriteSteps begin_mark_resume_pending(const Env& env, LaneRef ref, std::string reason) {
    return [env, ref = std::move(ref), reason = std::move(reason)] {
        std::optional<LaneSnapshot> current;
        if (auto unsupported = lanes_supported(env)) return WriteStep::answered(Outcome::fail(std::move(*unsupported)));
        if (auto error = read_lane(env, ref, current)) return WriteStep::answered(Outcome::fail(std::move(*error)));
        if (!current) return WriteStep::answered(Outcome::fail(lane_not_found(ref)));
        // docs/api.md: ignored while suspended
        if (current->lane.suspended) return WriteStep::answered(Outcome::ok(lane_json(current->lane)));
        return change_flags(env, ref, [reason](storage::LaneRow& row) {
            if (row.suspended) return;  // suspended meanwhile: still ignored
            row.resume_pending = true;
            row.resume_reason = reason;
        })();
    };
}

Outcome mark_resume_pending(const Env& env, const LaneRef& ref, const std::string& reason) {
    return run_steps(begin_mark_resume_pending(env, ref, reason)());
}

WriteSteps begin_complete_turn(const Env& env, const LaneRef& ref) {
    int64_t now = env.clock.now_us();
    return change_flags(env, ref, [now](storage::LaneRow& row) {
        row.resume_pending = false;
        row.resume_reason.reset();
        row.was_auto_reset = false;
        row.is_fresh_reset = false;
        row.restart_count = 0;
        row.updated_at_us = now;
    });
}

Outcome complete_turn(const Env& env, const LaneRef& ref) {
    return run_steps(begin_complete_turn(env, ref)());
}

Outcome get_lane(const Env& env, const LaneRef& ref) {
    if (auto unsupported = lanes_supported(env)) return Outcome::fail(std::move(*unsupported));
    std::optional<LaneSnapshot> current;
    if (auto error = read_lane(env, ref, current)) return Outcome::fail(std::move(*error));
    if (!current) return Outcome::fail(lane_not_found(ref));
    return Outcome::ok(lane_json(current->lane));
}

Outcome list_lanes(const Env& env, const ListLanesInput& in) {
    if (auto unsupported = lanes_supported(env)) return Outcome::fail(std::move(*unsupported));
    mnemo_lane_list_req req{};
    req.app = storage::str(in.app);
    req.now_us = env.clock.now_us();
    req.active_within_us = in.active_within_us;
    req.limit = in.limit + 1;  // one more tells whether a next page exists
    std::string cursor_lane;
    req.cursor_lane = storage::absent();
    if (in.page_token) {
        if (!decode_time_name_token(*in.page_token, req.cursor_updated_at_us, cursor_lane)) {
            return Outcome::fail(
                invalid(fmt::format("page_token '{}' is not a token this API returned", *in.page_token)));
        }
        req.cursor_lane = storage::str(cursor_lane);
    }
    storage::Collector collector;
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().lane_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return Outcome::fail(from_storage(*failure));
    }
    return Outcome::ok(lanes_page_json(collector.result().lanes, in.limit));
}

}  // namespace mnemo::core
