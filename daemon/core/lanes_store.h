/*
 * core/lanes_store.h -- the storage side of lane operations (internal to
 * core/lanes*.cpp): reading a lane with its current session, and the
 * compare-and-set write steps every lane change goes through.
 */
#pragma once

#include "core/lanes.h"
#include "core/pending_write.h"
#include "storage/rows.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::core {

// A lane as read, with its current session when that session is live.
struct LaneSnapshot {
    storage::LaneRow lane;
    std::optional<storage::SessionRow> session;
    int64_t session_events = 0;
};

// One lane write: the next row, and optionally a new session in the same transaction.
struct LaneWrite {
    storage::LaneRow row;
    int64_t expected_version = 0;  // 0: the lane must not exist yet
    bool create_session = false;   // create row.session_id (owner row.user)
    std::optional<std::string> parent_id;
    std::string metadata_json = "{}";
    std::optional<std::string> finalize_session_id;  // marked for finalize with reason reset
};

// What a planner decides after reading: an error, a write, or neither (answer with the lane as read).
struct LanePlan {
    std::optional<Error> error;
    std::optional<LaneWrite> write;
};
using LanePlanner = std::function<LanePlan(const std::optional<LaneSnapshot>& current)>;

struct LaneUpdate {
    std::optional<Error> error;
    storage::LaneRow lane;                       // as stored after the update (or as read)
    std::optional<storage::SessionRow> created;  // the session the write created
    std::vector<storage::StateEntry> created_state;
    std::optional<LaneSnapshot> before;  // what the winning attempt read
};

// The lane, nullopt when absent; an Error when storage failed.
std::optional<Error> read_lane(const Env& env, const LaneRef& ref, std::optional<LaneSnapshot>& out);

// What an operation answers once its update is settled (or failed: update.error); on a
// thread that may block, so it may read the lane's session.
using LaneAnswer = std::function<Outcome(LaneUpdate& update)>;

// Read, plan, compare-and-set write; on a concurrent change, read and plan again (bounded).
// The write is a PendingWrite of its own step, so a backend that queues writes holds no
// thread while it waits for the commit.
WriteSteps update_lane(const Env& env, LaneRef ref, LanePlanner planner, LaneAnswer answer);

// A live session with its merged state JSON (for answers that show the lane's session).
std::optional<Error> read_session(const Env& env, const std::string& app, const std::string& user,
                                  const std::string& id, storage::SessionRow& row, std::string& state_json);

std::optional<Error> lanes_supported(const Env& env);
Error lane_not_found(const LaneRef& ref);

}  // namespace mnemo::core
