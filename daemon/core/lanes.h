/*
 * core/lanes.h -- lanes: stable conversation keys and their sessions.
 *
 * Owns docs/api.md's Lanes section below HTTP: decoding the lane request bodies,
 * the resolve decision order (absent or force_new, suspended,
 * resume_pending, the reset policy, else the same session), explicit reset,
 * switch, suspend, resume-pending, turn-complete, get and list, and the
 * JSON of a Lane. Every write is a compare-and-set on the lane's version,
 * retried on a concurrent change; a move to a new session creates it (with
 * the old one as parent) and marks the old one for finalize in the same
 * storage transaction. Like core/service.h, everything may block on
 * storage and is thread-safe; the writes are also steps (begin_*) whose
 * compare-and-set a backend may queue without a thread waiting.
 */
#pragma once

#include "core/pending_write.h"
#include "core/service.h"

#include <optional>
#include <string>

namespace mnemo::core {

struct LaneRef {
    std::string app, lane;
};

// A lane that moved to a new session (resolve by policy or force_new, explicit reset), for
// SCRIPTING.md's `reset` hook. reason: idle | daily | suspended | force_new | reset.
struct LaneMove {
    storage::LaneRow lane;                           // after the move
    std::optional<storage::SessionRow> old_session;  // null when the old session was no longer live
    storage::SessionRow new_session;
    std::string reason;
};

// Told after the move is stored; may be called on any thread.
class LaneMoveSink {
public:
    virtual ~LaneMoveSink() = default;
    virtual void moved(LaneMove move) = 0;
};

struct ResolveLaneInput {
    LaneRef ref;
    std::string user;
    std::optional<std::string> platform;   // absent: keep the lane's
    std::optional<std::string> chat_type;  // dm | group | channel | thread; absent: keep the lane's
    bool force_new = false;
    std::string metadata_json = "{}";  // for a session resolve creates
};

struct ListLanesInput {
    std::string app;
    int64_t limit = 50;
    std::optional<std::string> page_token;
    int64_t active_within_us = 0;
};

// The writing operations come twice: run here (blocking), and as their steps
// (begin_*, core/pending_write.h), whose writes a backend may queue.
// POST .../resolve: {"lane", "session", "created"}.
Outcome resolve_lane(const Env& env, const ResolveLaneInput& in);
WriteSteps begin_resolve_lane(const Env& env, ResolveLaneInput in);
// POST .../reset: {"lane", "session"}, a new session with is_fresh_reset.
Outcome reset_lane(const Env& env, const LaneRef& ref);
WriteSteps begin_reset_lane(const Env& env, LaneRef ref);
// POST .../switch: {"lane", "session"}; the session must be the lane user's, live, in the same app.
Outcome switch_lane(const Env& env, const LaneRef& ref, const std::string& session_id);
WriteSteps begin_switch_lane(const Env& env, LaneRef ref, std::string session_id);
// POST .../suspend, .../resume-pending, .../turn-complete: the Lane.
Outcome suspend_lane(const Env& env, const LaneRef& ref);
WriteSteps begin_suspend_lane(const Env& env, const LaneRef& ref);
Outcome mark_resume_pending(const Env& env, const LaneRef& ref, const std::string& reason);
WriteSteps begin_mark_resume_pending(const Env& env, LaneRef ref, std::string reason);
Outcome complete_turn(const Env& env, const LaneRef& ref);
WriteSteps begin_complete_turn(const Env& env, const LaneRef& ref);
// GET .../lanes/{lane} and GET .../lanes.
Outcome get_lane(const Env& env, const LaneRef& ref);
Outcome list_lanes(const Env& env, const ListLanesInput& in);

// Request bodies. An empty body counts as {} where every field is optional.
std::optional<Error> decode_resolve_lane(std::string& body, ResolveLaneInput& out);
std::optional<Error> decode_switch_lane(std::string& body, std::string& session_id);
std::optional<Error> decode_resume_pending(std::string& body, std::string& reason);
std::optional<Error> decode_turn_complete(std::string& body);

}  // namespace mnemo::core
