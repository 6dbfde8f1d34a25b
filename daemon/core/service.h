/*
 * core/service.h -- the domain operations of docs/api.md, above storage.
 *
 * Owns each operation end to end below HTTP: the inputs (already decoded
 * from JSON and validated on the loop), the rules that need the config
 * (limits and TTLs per app, soft delete), the storage call, and the JSON
 * body of the answer. Every function here may block on storage and is
 * thread-safe: the API layer runs it inline for a non-blocking backend and
 * on a worker otherwise. A write's begin_* form prepares it without running
 * it (core/pending_write.h), so a backend that queues writes itself gets it
 * straight from the loop. Nothing here knows about HTTP or libuv.
 */
#pragma once

#include "config/config.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/event_input.h"
#include "core/finalize_inbox.h"
#include "core/state_delta.h"
#include "storage/backend.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::core {

class LaneMoveSink;  // core/lanes.h
class PendingWrite;  // core/pending_write.h

// What an operation sees: storage, the config snapshot it started with, time.
struct Env {
    const storage::Backend& backend;
    std::shared_ptr<const config::Config> config;
    const Clock& clock;
    FinalizeInbox* finalize_inbox = nullptr;  // where hard-deleted sessions go; null: nobody finalizes
    LaneMoveSink* lane_moves = nullptr;       // told when a lane moves to a new session; null: nobody listens
};

enum class Success { Ok, Created, NoContent };

struct AppendReply;

struct Outcome {
    std::optional<Error> error;
    Success success = Success::Ok;
    std::string body;  // JSON; empty for NoContent
    // append_events: the typed answer, rendered by the api (render_append) once
    // it knows whether a summary was enqueued; body is empty until then.
    std::shared_ptr<const AppendReply> append;

    static Outcome fail(Error e) { return Outcome{std::move(e), Success::Ok, {}, nullptr}; }
    static Outcome ok(std::string body, Success s = Success::Ok) {
        return Outcome{std::nullopt, s, std::move(body), nullptr};
    }
};

struct SessionRef {
    std::string app, user, id;
};

// ---- sessions ----
struct CreateSessionInput {
    std::string app, user;
    std::optional<std::string> id;
    std::string title;
    std::optional<std::string> parent_id;
    std::string metadata_json = "{}";
    DecodedDelta state;
    std::optional<int64_t> ttl_seconds;
};
Outcome create_session(const Env& env, const CreateSessionInput& in);
std::shared_ptr<PendingWrite> begin_create_session(const Env& env, CreateSessionInput in);

struct GetSessionInput {
    SessionRef ref;
    std::optional<int64_t> num_recent_events;
    int64_t after_ts_us = 0;
    bool from_checkpoint = false;
    std::optional<std::string> filter_key;
};
Outcome get_session(const Env& env, const GetSessionInput& in);

struct ListSessionsInput {
    std::string app;
    std::optional<std::string> user;
    int64_t limit = 50;
    std::optional<std::string> page_token;
    int64_t active_within_us = 0;
};
Outcome list_sessions(const Env& env, const ListSessionsInput& in);

// ---- apps and users (core/activity.cpp) ----
// Every app holding data (a live session or memory), and every app of the
// config (with zeros when it holds none), by name.
Outcome list_apps(const Env& env);
struct ListUsersInput {
    std::string app;
    int64_t limit = 50;
    std::optional<std::string> page_token;
};
// An app's users holding data, most recently active first.
Outcome list_users(const Env& env, const ListUsersInput& in);

Outcome delete_session(const Env& env, const SessionRef& ref, bool hard);
std::shared_ptr<PendingWrite> begin_delete_session(const Env& env, SessionRef ref, bool hard);
Outcome purge_user(const Env& env, const std::string& app, const std::string& user);
std::shared_ptr<PendingWrite> begin_purge_user(const Env& env, std::string app, std::string user);

// ---- events ----
struct AppendInput {
    SessionRef ref;
    std::vector<EventInput> events;
    std::optional<int64_t> expected_version;
    bool create_if_missing = false;
    bool store_nulls = false;  // "state_nulls": "store": applied after the append hooks, which may set deltas
    int64_t dropped = 0;       // events an append hook chose not to store
};
// One event of an append as stored (or found stored, on a retry).
struct AppendedEvent {
    std::string id;
    int64_t seq = 0;
    int64_t timestamp_us = 0;
};
// What an append answers (docs/api.md), before rendering.
struct AppendReply {
    int64_t version = 0;
    std::vector<AppendedEvent> appended;
    int64_t skipped_partial = 0;
    int64_t dropped = 0;
    int64_t evicted = 0;
    std::optional<std::string> state_json;  // the merged state, when an event carried a delta
};
std::string render_append(const AppendReply& reply, bool summary_enqueued);

// Answers with Outcome::append set (or an error).
Outcome append_events(const Env& env, AppendInput& in);

// append_events split around its storage call, for a backend that queues
// appends itself (Backend::async_append): begin() prepares the request on the
// caller's thread, start() hands it to events_append_async, finish() renders
// the answer from the status the backend's done callback gave. `in` and the
// PendingAppend stay alive and untouched from start() until that callback.
struct AppendCall;
class PendingAppend {
public:
    // nullptr when the batch holds only partial events: call append_events.
    static std::unique_ptr<PendingAppend> begin(const Env& env, AppendInput& in);
    ~PendingAppend();
    PendingAppend(const PendingAppend&) = delete;
    PendingAppend& operator=(const PendingAppend&) = delete;
    // The backend's immediate status: non-zero means done will never be called.
    int start(mnemo_done_fn done, void* done_ctx);
    Outcome finish(int status);

private:
    explicit PendingAppend(std::unique_ptr<AppendCall> call);
    std::unique_ptr<AppendCall> call_;
};

struct ListEventsInput {
    SessionRef ref;
    int64_t after_seq = 0;
    int64_t limit = 100;
    std::optional<std::string> roles;
    bool include_deleted = false;
};
Outcome list_events(const Env& env, const ListEventsInput& in);

struct RewriteInput {
    SessionRef ref;
    std::vector<EventInput> events;
    std::optional<int64_t> expected_version;
};
Outcome rewrite_events(const Env& env, RewriteInput& in);
std::shared_ptr<PendingWrite> begin_rewrite_events(const Env& env, std::shared_ptr<RewriteInput> in);

struct RewindInput {
    SessionRef ref;
    int64_t turns = 1;
    std::optional<int64_t> expected_version;
};
Outcome rewind(const Env& env, const RewindInput& in);
std::shared_ptr<PendingWrite> begin_rewind(const Env& env, RewindInput in);

// ---- state ----
struct PatchStateInput {
    int scope = MNEMO_SCOPE_SESSION;
    SessionRef ref;  // app always; user for user/session scope; id for session scope
    DecodedDelta delta;
    std::optional<int64_t> expected_version;
};
Outcome patch_state(const Env& env, const PatchStateInput& in);
std::shared_ptr<PendingWrite> begin_patch_state(const Env& env, PatchStateInput in);
Outcome get_scope_state(const Env& env, int scope, const std::string& app, const std::string& user);
std::shared_ptr<PendingWrite> begin_delete_state_key(const Env& env, int scope, const std::string& app,
                                                     const std::string& user, const std::string& key);

// ---- summaries and tracks ----
struct PostSummaryInput {
    SessionRef ref;
    std::string filter_key;
    std::string text;
    int64_t up_to_seq = 0;
};
std::shared_ptr<PendingWrite> begin_post_summary(const Env& env, PostSummaryInput in);
Outcome list_summaries(const Env& env, const SessionRef& ref);

struct TrackAppendInput {
    SessionRef ref;
    std::string track;
    std::string payload_json;
    std::optional<int64_t> timestamp_us;
};
std::shared_ptr<PendingWrite> begin_append_track(const Env& env, TrackAppendInput in);

struct TrackListInput {
    SessionRef ref;
    std::string track;
    int64_t after_seq = 0;
    int64_t limit = 100;
};
Outcome list_track(const Env& env, const TrackListInput& in);

struct SessionTracksInput {
    SessionRef ref;
    int64_t limit = 100;
    std::optional<std::string> page_token;  // the last track name of the previous page
};
// The session's tracks by name, with their event counts and last seq.
Outcome list_session_tracks(const Env& env, const SessionTracksInput& in);

// ---- operations ----
struct StorageStats {
    std::optional<Error> error;
    int64_t sessions = 0, events = 0, lanes = 0;
};
StorageStats storage_stats(const Env& env);
std::optional<Error> ping(const Env& env);

}  // namespace mnemo::core
