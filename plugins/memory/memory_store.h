// memory_store.h -- the in-memory storage backend of mnemod.
//
// This module owns a process-local store behind the plugin ABI of
// mnemo_plugin.h: apps with their app-scope state, users with their user-scope
// state and sessions, and per session its events, state, summaries and track
// events. It applies the rules that need stored data (versions, client-id
// idempotency, seqs, eviction, usage sums, state limits, TTL refresh, soft
// deletes), the lanes of each app, and the lifecycle of sessions (finalize
// marks, expiry sweeps, purges) under one std::shared_mutex: writes take it
// exclusively, reads shared. The search indexes are filed by the indexer's
// thread behind a lock of their own (search_indexer.h). Expired and soft-deleted items are invisible to
// every operation at once; ordered indexes by expiry, deletion and lane
// activity let a sweep step cost O(rows it handles), never O(live rows).
// Nothing here reads a clock, every request carries its now_us. Data lives
// only as long as the process (no MNEMO_CAP_PERSISTENT).
#pragma once

#include "event_log.h"
#include "lane_rec.h"
#include "memories.h"
#include "scope.h"
#include "search_indexer.h"
#include "session_index.h"

#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <tuple>
#include <utility>
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
    std::optional<std::string> parent_id;
    std::string metadata_json = "{}";
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0, ttl_us = 0;
    int64_t version = 1, last_seq = 0, deleted_at_us = 0;
    int64_t extracted_seq = 0;  // the extraction cursor (mnemo_extracted_req)
    mnemo_usage usage{};
    Scope state;
    EventLog events;
    std::map<std::string, std::vector<SummaryRec>, std::less<>> summaries;  // history per filter key
    std::map<std::string, TrackRec, std::less<>> tracks;
    // Finalize mark: reason 0 means never marked; finalized_at 0 means pending.
    int finalize_reason = 0;
    int64_t finalize_marked_at_us = 0, finalize_attempts = 0, finalized_at_us = 0;

    bool visible(int64_t now_us) const { return deleted_at_us == 0 && live_at(expires_at_us, now_us); }
    bool finalize_pending() const { return finalize_reason != 0 && finalized_at_us == 0; }
};

struct UserRec {
    Scope state;
    StringMap<std::unique_ptr<SessionRec>> sessions;  // soft-deleted and expired ones too
    SessionIndex index;                               // every session not soft-deleted
    std::set<std::string, std::less<>> lanes;         // names of the app's lanes this user owns
};

struct AppRec {
    Scope state;
    StringMap<UserRec> users;
    SessionIndex index;
    std::map<std::string, LaneRec, std::less<>> lanes;
    LaneIndex lane_index;
    SearchIndex search;  // visible events of the app's sessions, filed by Store::indexer
};

// One session with the records around it; session is null when absent.
struct SessionRef {
    AppRec* app = nullptr;
    UserRec* user = nullptr;
    SessionRec* session = nullptr;
};

// Sessions ordered by one time, ties by address; each set holds exactly the
// sessions its comment names, so a sweep walks only rows that are due.
using SessionTimeIndex = std::set<std::pair<int64_t, SessionRec*>>;

struct Store {
    std::shared_mutex mutex;
    StringMap<AppRec> apps;
    SessionTimeIndex expiring;    // not soft-deleted, expires_at > 0; by expires_at
    SessionTimeIndex purgeable;   // soft-deleted, finalize done or never needed; by deleted_at
    SessionTimeIndex finalizing;  // finalize pending; by mark time
    std::set<std::tuple<int64_t, SessionRec*, int64_t>> deleted_events;  // (deleted_at, session, seq)
    ScopeExpiries scope_expiries;
    std::set<std::pair<int64_t, LaneRec*>> lanes_by_update;  // every lane, by updated_at
    MemoryStore memories;                                    // long-term memories (memories.h)
    // Last: its thread, which files into the apps' indexes, stops before they go.
    SearchIndexer indexer;
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
// A write: updated_at = now, TTL refreshed, list and expiry indexes follow.
void touch_session(Store& store, const SessionRef& ref, int64_t now_us, bool bump_updated_at);

}  // namespace mnemo::memory

// The opaque handle of the ABI is the store itself.
struct mnemo_backend {
    mnemo::memory::Store store;
};
