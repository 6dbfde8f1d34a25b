// Import: storing mnemo_record's as given (ids, seqs, versions, timestamps,
// counters kept), each replacing the item of the same identity, under one
// exclusive lock (memory records: memory_records.cpp). Every record is
// checked before the first one is applied, so a rejected batch leaves the
// store untouched.
#include "errors.h"
#include "lanes.h"
#include "lifecycle.h"
#include "memory_records.h"
#include "ops.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <tuple>

namespace mnemo::memory {

namespace {

using KeyTuple = std::tuple<std::string_view, std::string_view, std::string_view>;

KeyTuple key_of(const mnemo_key& key) {
    return {view(key.app), view(key.user), view(key.session_id)};
}

// Sessions the batch may attach rows to: live in the store, or imported by
// an earlier record of the batch.
class KnownSessions {
public:
    KnownSessions(Store& store, int64_t now_us) : store_(store), now_us_(now_us) {}
    void add(const mnemo_key& key) { imported_.insert(key_of(key)); }
    bool has(const mnemo_key& key) const {
        if (imported_.contains(key_of(key))) return true;
        SessionRef ref = find_session(store_, key);
        return ref.session && ref.session->visible(now_us_);
    }

private:
    Store& store_;
    int64_t now_us_;
    std::set<KeyTuple> imported_;
};

bool needs_session(const mnemo_record& r) {
    return r.kind == MNEMO_RECORD_EVENT || r.kind == MNEMO_RECORD_SUMMARY || r.kind == MNEMO_RECORD_TRACK ||
           (r.kind == MNEMO_RECORD_STATE && r.scope == MNEMO_SCOPE_SESSION);
}

bool has_payload(const mnemo_record& r) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return r.session != nullptr;
        case MNEMO_RECORD_EVENT:
            return r.event != nullptr && r.event->seq > 0;
        case MNEMO_RECORD_STATE:
            return r.scope >= MNEMO_SCOPE_SESSION && r.scope <= MNEMO_SCOPE_USER && r.value_json.ptr != nullptr;
        case MNEMO_RECORD_SUMMARY:
            return r.summary != nullptr;
        case MNEMO_RECORD_TRACK:
            return r.track_event != nullptr && r.track.ptr != nullptr;
        case MNEMO_RECORD_LANE:
            return r.lane != nullptr;
        case MNEMO_RECORD_MEMORY:
            return r.memory != nullptr;
        default:
            return false;
    }
}

int check_records(Store& store, const mnemo_import_req& req, mnemo_error* err) {
    KnownSessions known(store, req.now_us);
    for (size_t i = 0; i < req.n_records; ++i) {
        const mnemo_record& r = req.records[i];
        if (!has_payload(r))
            return fail(err, MNEMO_E_INVALID, "import record %zu (kind %d) lacks the fields of its kind", i, r.kind);
        if (r.kind == MNEMO_RECORD_SESSION) known.add(mnemo_key{r.session->app, r.session->user, r.session->id});
        if (needs_session(r) && !known.has(r.key))
            return fail(err, MNEMO_E_INVALID,
                        "import record %zu belongs to session %.*s/%.*s of app %.*s, which is neither stored nor "
                        "imported before it; put the session record first",
                        i, MNEMO_STR_ARG(r.key.user), MNEMO_STR_ARG(r.key.session_id), MNEMO_STR_ARG(r.key.app));
    }
    return check_memory_records(store.memories, req, err);
}

// Every field of the row but expires_at, which goes through the expiry index.
void fill_session(SessionRec& session, const mnemo_session& row) {
    session.app = copy(row.app);
    session.user = copy(row.user);
    session.id = copy(row.id);
    session.title = copy(row.title);
    session.parent_id = copy_opt(row.parent_id);
    session.metadata_json = row.metadata_json.ptr ? copy(row.metadata_json) : "{}";
    session.created_at_us = row.created_at_us;
    session.updated_at_us = row.updated_at_us;
    session.ttl_us = row.ttl_us;
    session.version = row.version;
    session.last_seq = row.last_seq;
    session.extracted_seq = row.extracted_seq;
    session.usage = row.usage;
}

// A live session keeps its children (later records replace them); a dead or
// absent one is replaced by a new, empty one.
void import_session(Store& store, const mnemo_session& row, int64_t now_us) {
    SessionRef ref = find_session(store, mnemo_key{row.app, row.user, row.id});
    if (ref.session && ref.session->visible(now_us)) {
        unindex_session(ref);
        fill_session(*ref.session, row);
        index_session(ref);
        set_session_expiry(store, *ref.session, row.expires_at_us);
        return;
    }
    auto session = std::make_unique<SessionRec>();
    fill_session(*session, row);
    session->expires_at_us = row.expires_at_us;
    attach_session(store, std::move(session));
}

const EventRec* visible_at(const EventLog& log, int64_t seq) {
    const size_t index = log.first_after(seq - 1);
    return index < log.visible().size() && log.visible()[index].seq() == seq ? &log.visible()[index] : nullptr;
}

// The event of that seq, visible or soft-deleted, gives way; the search index follows.
void import_event(Store& store, const SessionRef& ref, const mnemo_event& event) {
    SessionRec& session = *ref.session;
    if (const EventRec* deleted = session.events.find_deleted(event.seq)) {
        store.deleted_events.erase({deleted->deleted_at_us(), &session, event.seq});
        session.events.purge_deleted(event.seq);
    }
    if (const EventRec* replaced = visible_at(session.events, event.seq))
        store.indexer.remove(*ref.app, session, *replaced);
    session.events.put(EventRec(event, event.seq));
    store.indexer.add(*ref.app, session, *visible_at(session.events, event.seq));
}

void put_entry(Scope& scope, std::string_view key, std::string_view value) {
    auto entry = scope.entries.find(key);
    if (entry == scope.entries.end()) {
        entry = scope.entries.emplace(std::string(key), std::string()).first;
    } else {
        scope.bytes -= static_cast<int64_t>(key.size() + entry->second.size());
    }
    entry->second.assign(value);
    scope.bytes += static_cast<int64_t>(key.size() + value.size());
}

// An expired app or user scope is gone as a whole before the record lands.
void import_state(Store& store, const mnemo_record& r, int64_t now_us) {
    if (r.scope == MNEMO_SCOPE_SESSION) {
        put_entry(find_session(store, r.key).session->state, view(r.state_key), view(r.value_json));
        return;
    }
    AppRec& app = ensure_app(store, view(r.key.app));
    Scope& scope = r.scope == MNEMO_SCOPE_APP ? app.state : ensure_user(app, view(r.key.user)).state;
    if (!scope.live(now_us)) {
        scope.entries.clear();
        scope.bytes = 0;
    }
    put_entry(scope, view(r.state_key), view(r.value_json));
    store.scope_expiries.set(scope, r.expires_at_us);
}

void import_summary(SessionRec& session, const mnemo_summary& row) {
    SummaryRec summary{copy(row.filter_key), copy(row.text),     copy(row.source), row.from_seq,
                       row.up_to_seq,        row.events_covered, row.created_at_us};
    auto& history = session.summaries[summary.filter_key];
    auto at = std::lower_bound(history.begin(), history.end(), summary.up_to_seq,
                               [](const SummaryRec& s, int64_t up_to) { return s.up_to_seq < up_to; });
    if (at != history.end() && at->up_to_seq == summary.up_to_seq)
        *at = std::move(summary);
    else
        history.insert(at, std::move(summary));
}

void import_track(SessionRec& session, std::string_view name, const mnemo_track_event& row) {
    auto track = session.tracks.find(name);
    if (track == session.tracks.end()) track = session.tracks.emplace(std::string(name), TrackRec{}).first;
    auto& events = track->second.events;
    TrackEventRec event{row.seq, copy(row.payload_json), row.timestamp_us};
    auto at = std::lower_bound(events.begin(), events.end(), row.seq,
                               [](const TrackEventRec& e, int64_t seq) { return e.seq < seq; });
    if (at != events.end() && at->seq == row.seq)
        *at = std::move(event);
    else
        events.insert(at, std::move(event));
    track->second.last_seq = std::max(track->second.last_seq, row.seq);
}

void import_lane(Store& store, const mnemo_lane& row) {
    LaneRec lane = lane_from(row);
    lane.version = row.version;
    lane.created_at_us = row.created_at_us;
    AppRec& app = ensure_app(store, lane.app);
    put_lane(store, app, std::move(lane));
}

void apply_record(Store& store, const mnemo_record& r, int64_t now_us) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return import_session(store, *r.session, now_us);
        case MNEMO_RECORD_EVENT:
            return import_event(store, find_session(store, r.key), *r.event);
        case MNEMO_RECORD_STATE:
            return import_state(store, r, now_us);
        case MNEMO_RECORD_SUMMARY:
            return import_summary(*find_session(store, r.key).session, *r.summary);
        case MNEMO_RECORD_TRACK:
            return import_track(*find_session(store, r.key).session, view(r.track), *r.track_event);
        case MNEMO_RECORD_LANE:
            return import_lane(store, *r.lane);
        case MNEMO_RECORD_MEMORY:
            return import_memory(store.memories, r, now_us);
        default:
            return;
    }
}

}  // namespace

int import_records(mnemo_backend* backend, const mnemo_import_req* req, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    if (int rc = check_records(store, *req, err)) return rc;
    for (size_t i = 0; i < req->n_records; ++i) apply_record(store, req->records[i], req->now_us);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
