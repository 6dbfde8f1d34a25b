// memory_store.h -- the in-memory storage backend of mnemod.
//
// This module owns a process-local store behind the plugin ABI of
// mnemo_plugin.h: apps with their app-scope state, users with their user-scope
// state and sessions, and per session its events, state, summaries and track
// events. It applies the rules that need stored data (versions, client-id
// idempotency, seqs, eviction, usage sums, state limits, TTL refresh, soft
// deletes) under one std::shared_mutex: writes take it exclusively, reads
// shared. Expired and soft-deleted items are invisible to every operation at
// once; nothing here reads a clock, every request carries its now_us. Data
// lives only as long as the process (no MNEMO_CAP_PERSISTENT).
#pragma once

#include "event_log.h"
#include "scope.h"
#include "session_index.h"

#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

namespace mnemo::memory {

struct SummaryRec {
    std::string filter_key, text, source;
    int64_t from_seq = 0, up_to_seq = 0, events_covered = 0, created_at_us = 0;
};

struct TrackEventRec {
    int64_t seq = 0;
    std::string payload_json;
    int64_t timestamp_us = 0;
};

struct TrackRec {
    int64_t last_seq = 0;
    std::vector<TrackEventRec> events;  // seq order
};

struct SessionRec {
    std::string app, user, id, title;
    OptStr parent_id;
    std::string metadata_json = "{}";
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0, ttl_us = 0;
    int64_t version = 1, last_seq = 0, deleted_at_us = 0;
    mnemo_usage usage{};
    Scope state;
    EventLog events;
    std::map<std::string, std::vector<SummaryRec>, std::less<>> summaries;  // history per filter key
    std::map<std::string, TrackRec, std::less<>> tracks;

    bool visible(int64_t now_us) const { return deleted_at_us == 0 && live_at(expires_at_us, now_us); }
};

struct UserRec {
    Scope state;
    StringMap<std::unique_ptr<SessionRec>> sessions;  // soft-deleted and expired ones too
    SessionIndex index;                               // every session not soft-deleted
};

struct AppRec {
    Scope state;
    StringMap<UserRec> users;
    SessionIndex index;
};

// One session with the records around it; session is null when absent.
struct SessionRef {
    AppRec* app = nullptr;
    UserRec* user = nullptr;
    SessionRec* session = nullptr;
};

struct Store {
    std::shared_mutex mutex;
    StringMap<AppRec> apps;
};

AppRec* find_app(Store& store, std::string_view app);
UserRec* find_user(Store& store, std::string_view app, std::string_view user);
SessionRef find_session(Store& store, const mnemo_key& key);
AppRec& ensure_app(Store& store, std::string_view app);
UserRec& ensure_user(AppRec& app, std::string_view user);

std::unique_ptr<SessionRec> new_session(const mnemo_key& key, int64_t now_us, int64_t ttl_us);
// Puts a new session in place, purging a soft-deleted or expired predecessor.
SessionRef attach_session(Store& store, std::unique_ptr<SessionRec> session);
void index_session(const SessionRef& ref);
void unindex_session(const SessionRef& ref);
// A write: updated_at = now, TTL refreshed, list indexes follow.
void touch_session(const SessionRef& ref, int64_t now_us, bool bump_updated_at);

}  // namespace mnemo::memory

// The opaque handle of the ABI is the store itself.
struct mnemo_backend {
    mnemo::memory::Store store;
};
