#include "capture_rows.h"
#include "event_rows.h"
#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"
#include "usage_sum.h"

#include <limits>
#include <string_view>
#include <unordered_set>

namespace mnemo::sqlcore {
namespace {

void reject_duplicate_ids(const mnemo_append_req& req) {
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < req.n_events; ++i) {
        if (seen.insert(view(req.events[i].id)).second) continue;
        throw StoreError(MNEMO_E_INVALID,
                         "event id " + text(req.events[i].id) + " appears twice in one batch for " + describe(req.key));
    }
}

SessionMeta session_for_append(Db& db, const mnemo_append_req& req, AppendOutcome& outcome) {
    std::optional<SessionMeta> found = find_session(db, req.key);
    if (found && found->live(req.now_us)) return *found;
    if (!req.create_if_missing) throw StoreError(MNEMO_E_NOT_FOUND, session_not_found(req.key));
    outcome.created = true;
    NewSession fresh{req.key, str(""), mnemo_str{nullptr, 0}, str("{}"), req.new_session_ttl_us, req.now_us};
    try {
        return insert_session(db, fresh);
    } catch (const StoreError& e) {
        // Another writer (another daemon on a shared database) created it since the lookup above.
        // BUSY runs the whole append again, and the next lookup finds that session.
        if (e.code() != MNEMO_E_EXISTS) throw;
        throw StoreError(MNEMO_E_BUSY, describe(req.key) + " was created by another writer at the same time");
    }
}

// True when every event of the batch is already stored under its client id
// with identical author, role and content: the answer is the original seqs.
bool answer_retry(Db& db, const SessionMeta& meta, const mnemo_append_req& req, AppendOutcome& outcome) {
    size_t stored = 0;
    for (size_t i = 0; i < req.n_events; ++i) {
        const mnemo_event& event = req.events[i];
        if (!event.id_from_client) continue;
        std::optional<StoredEvent> found = find_visible_by_id(db, meta.sid, event);
        if (!found) continue;
        if (!found->identical)
            throw StoreError(MNEMO_E_CONFLICT, "event id " + text(event.id) + " already exists in " +
                                                   describe(req.key) + " with other content; use a new id");
        ++stored;
        outcome.seqs.push_back(found->seq);
        outcome.timestamps_us.push_back(found->timestamp_us);
    }
    if (stored == 0) return false;
    if (stored != req.n_events)
        throw StoreError(MNEMO_E_CONFLICT, "the batch mixes " + std::to_string(stored) +
                                               " already stored event ids with new events in " + describe(req.key) +
                                               "; send the new events alone");
    outcome.retried = true;
    outcome.version = meta.version;
    return true;
}

// Inserts events after last_seq; returns nothing but leaves meta counting them.
void store_events(Db& db, SessionMeta& meta, const mnemo_event* events, size_t n_events, AppendOutcome* outcome) {
    for (size_t i = 0; i < n_events; ++i) {
        int64_t seq = ++meta.last_seq;
        meta.search_terms_delta += insert_event(db, meta.sid, seq, events[i]);
        if (!outcome) continue;
        outcome->seqs.push_back(seq);
        outcome->timestamps_us.push_back(events[i].timestamp_us);
    }
    meta.event_count += static_cast<int64_t>(n_events);
}

// The memories an event operation captures or removes, sharing one feed
// clock, taken only when one is needed and after the session's lock (the
// order of every memory write inside a session operation). The captures are
// checked before the events are stored and kept after they got their seqs;
// save() writes the clock back.
class SessionCaptures {
public:
    SessionCaptures(Db& db, const mnemo_key& key, const SessionMeta& meta, int64_t now_us)
        : db_(db), key_(key), meta_(meta), now_us_(now_us) {}

    void check(const mnemo_capture* items, size_t n_items, size_t n_events, const mnemo_capture_settings& settings) {
        batch_ = CaptureBatch{&key_, items, n_items, n_events, &settings, now_us_};
        if (n_items == 0) return;
        clock();  // before the memories are read
        check_captures(db_, batch_);
    }
    // The memories captured from the events from from_seq on (being hidden)
    // go. mnemod asks this of every rewind and rewrite: the clock is taken
    // only when there is one to remove.
    void remove_from(std::optional<int64_t> from_seq) {
        if (!from_seq || !any_captured(db_, key_, *from_seq, meta_.created_at_us)) return;
        remove_captured(db_, clock(), key_, *from_seq, meta_.created_at_us, now_us_);
    }
    // events[i] of the checked request got the seq first_seq + i.
    void store(int64_t first_seq) {
        if (batch_.n_items > 0) store_captures(db_, clock(), batch_, first_seq);
    }
    void save() {
        if (clock_) clock_->save();
    }

private:
    FeedClock& clock() {
        if (!clock_) clock_.emplace(db_);
        return *clock_;
    }

    Db& db_;
    const mnemo_key& key_;
    const SessionMeta& meta_;
    int64_t now_us_;
    CaptureBatch batch_;
    std::optional<FeedClock> clock_;
};

int64_t apply_event_limit(Db& db, SessionMeta& meta, int64_t event_limit) {
    if (event_limit <= 0 || meta.event_count <= event_limit) return 0;
    int64_t terms = 0;
    int64_t evicted = evict_oldest(db, meta.sid, meta.event_count - event_limit, &terms);
    meta.event_count -= evicted;
    meta.search_terms_delta -= terms;
    return evicted;
}

}  // namespace

void events_append(Db& db, const mnemo_append_req& req, AppendOutcome& outcome, Output& out) {
    reject_duplicate_ids(req);
    SessionMeta meta = session_for_append(db, req, outcome);
    // A retry is answered before the version check: its first attempt moved
    // the version on.
    if (answer_retry(db, meta, req, outcome)) return;
    check_version(meta, req.has_expected_version, req.expected_version, req.key);
    SessionCaptures captures(db, req.key, meta, req.now_us);
    captures.check(req.captures, req.n_captures, req.n_events, req.capture);
    store_events(db, meta, req.events, req.n_events, &outcome);
    captures.store(meta.last_seq - static_cast<int64_t>(req.n_events) + 1);
    captures.save();
    for (size_t i = 0; i < req.n_events; ++i) host::add_usage(meta.usage, req.events[i].usage);
    StateTarget target{&meta, req.key.app, req.key.user};
    StateWriter state(db, target, req.now_us);
    state.apply(req.state_ops, req.n_state_ops);
    state.finish(req.max_state_bytes, req.app_state_ttl_us, req.user_state_ttl_us);
    outcome.evicted = apply_event_limit(db, meta, req.event_limit);
    mark_written(meta, req.now_us);
    save_session(db, meta);
    outcome.version = meta.version;
    if (req.want_state) emit_merged_state(db, target, req.now_us, out);
}

void events_list(Db& db, const mnemo_events_list_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    int64_t floor_seq = 0;
    if (req.filter.from_checkpoint)
        floor_seq = latest_summary(db, meta.sid, req.filter.filter_key, nullptr).value_or(0);
    emit_events(db, meta.sid, req.filter, floor_seq, out);
}

// The old transcript is soft-deleted, the new one appended after last_seq;
// its state deltas were applied when first written, so they are only stored.
void events_rewrite(Db& db, const mnemo_rewrite_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    check_version(meta, req.has_expected_version, req.expected_version, req.key);
    SessionCaptures captures(db, req.key, meta, req.now_us);
    captures.check(req.captures, req.n_captures, req.n_events, req.capture);
    if (req.remove_captured) captures.remove_from(first_visible_seq(db, meta.sid));
    int64_t terms = 0;
    int64_t replaced = soft_delete_from(db, meta.sid, 0, req.now_us, &terms);
    meta.event_count = 0;
    meta.search_terms_delta -= terms;
    const int64_t first_seq = meta.last_seq + 1;
    store_events(db, meta, req.events, req.n_events, nullptr);
    captures.store(first_seq);
    captures.save();
    apply_event_limit(db, meta, req.event_limit);
    mark_written(meta, req.now_us);
    save_session(db, meta);
    out.result(mnemo_rewrite_result{meta.version, replaced});
}

void events_rewind(Db& db, const mnemo_rewind_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    check_version(meta, req.has_expected_version, req.expected_version, req.key);
    int64_t before_seq = std::numeric_limits<int64_t>::max();
    int64_t rewound = 0, turns_undone = 0, terms = 0;
    for (; turns_undone < req.turns; ++turns_undone) {
        std::optional<int64_t> turn = latest_user_turn(db, meta.sid, before_seq);
        if (!turn) break;
        rewound += soft_delete_from(db, meta.sid, *turn, req.now_us, &terms);
        before_seq = *turn;
    }
    meta.event_count -= rewound;
    meta.search_terms_delta -= terms;
    if (req.remove_captured && turns_undone > 0) {
        SessionCaptures captures(db, req.key, meta, req.now_us);
        captures.remove_from(before_seq);
        captures.save();
    }
    mark_written(meta, req.now_us);
    save_session(db, meta);
    if (turns_undone > 0) emit_event_at(db, meta.sid, before_seq, out);
    out.result(mnemo_rewind_result{meta.version, rewound, turns_undone});
}

}  // namespace mnemo::sqlcore
