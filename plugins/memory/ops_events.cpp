// Reading events, replacing the transcript (rewrite) and undoing user turns (rewind).
#include "append_ids.h"
#include "captures.h"
#include "emit.h"
#include "errors.h"
#include "event_filter.h"
#include "lifecycle.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

namespace {

// Finds the request's visible session and checks its expected version
// (rewrite and rewind requests name both alike).
template <typename Req>
int writable_session(Store& store, const Req& req, SessionRef& ref, mnemo_error* err) {
    ref = find_session(store, req.key);
    if (!ref.session || !ref.session->visible(req.now_us)) return session_not_found(err, req.key);
    return check_version(err, req.key, req.has_expected_version, req.expected_version, ref.session->version);
}

// Index of the earliest event of the last `turns` user turns; `undone` says how many were found.
size_t turn_start(const EventLog& log, int64_t turns, int64_t& undone) {
    const auto& visible = log.visible();
    size_t cut = visible.size();
    undone = 0;
    while (undone < turns) {
        size_t i = cut;
        while (i > 0 && visible[i - 1].role() != "user") --i;
        if (i == 0) break;
        cut = i - 1;
        ++undone;
    }
    return cut;
}

// Removes the memories captured from the visible events from index `from` on.
void remove_captured_from(Store& store, const SessionRec& session, size_t from, int64_t now_us) {
    const auto& visible = session.events.visible();
    if (from < visible.size())
        store.memories.remove_captured(session.app, session.user, session.id, visible[from].seq(),
                                       session.created_at_us, now_us);
}

}  // namespace

int events_list(mnemo_backend* backend, const mnemo_events_list_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    const EventSelection selection = select_events(*ref.session, req->filter);
    // Blocks are asked for a window ahead of the rendering, so their cache
    // misses overlap instead of each stalling it in turn; a window, not the
    // whole selection, so a long read does not evict what it asked for before
    // it renders it (B's 50 events fit in one window).
    constexpr size_t kPrefetchWindow = 64;
    const std::vector<const EventRec*>& events = selection.events;
    for (size_t i = 0; i < events.size() && i < kPrefetchWindow; ++i) events[i]->prefetch();
    for (size_t i = 0; i < events.size(); ++i) {
        if (i + kPrefetchWindow < events.size()) events[i + kPrefetchWindow]->prefetch();
        emit_event(sink, *events[i]);
    }
    if (selection.has_more) emit_result<&mnemo_sink::has_more>(sink);
    return MNEMO_OK;
}

int events_rewrite(mnemo_backend* backend, const mnemo_rewrite_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref;
    if (int rc = writable_session(store, *req, ref, err)) return rc;
    std::string_view duplicate = duplicate_id(req->events, req->n_events);
    if (!duplicate.empty())
        return fail(err, MNEMO_E_INVALID, "event id %.*s appears twice in the new transcript of session %.*s/%.*s",
                    static_cast<int>(duplicate.size()), duplicate.data(), MNEMO_STR_ARG(req->key.user),
                    MNEMO_STR_ARG(req->key.session_id));
    const CaptureBatch captures{&req->key, req->captures, req->n_captures, req->n_events, &req->capture, req->now_us};
    if (int rc = check_captures(store.memories, captures, err)) return rc;
    SessionRec& session = *ref.session;
    if (req->remove_captured) remove_captured_from(store, session, 0, req->now_us);
    const int64_t replaced = soft_delete_events(store, session, 0, req->now_us);
    const int64_t first_seq = session.last_seq + 1;
    // Deltas and usage of the new transcript were applied when first appended.
    for (size_t i = 0; i < req->n_events; ++i) {
        session.events.push(EventRec(req->events[i], ++session.last_seq));
        store.indexer.add(*ref.app, session, session.events.visible().back());
    }
    store_captures(store.memories, captures, first_seq);
    store.indexer.evict(*ref.app, session, req->event_limit);
    session.version += 1;
    touch_session(store, ref, req->now_us, true);
    const mnemo_rewrite_result result{session.version, replaced};
    emit_result<&mnemo_sink::rewritten>(sink, &result);
    return MNEMO_OK;
}

int events_rewind(mnemo_backend* backend, const mnemo_rewind_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref;
    if (int rc = writable_session(store, *req, ref, err)) return rc;
    SessionRec& session = *ref.session;
    int64_t undone = 0;
    const size_t cut = turn_start(session.events, req->turns, undone);
    const int64_t target_seq = undone > 0 ? session.events.visible()[cut].seq() : 0;
    if (undone > 0 && req->remove_captured) remove_captured_from(store, session, cut, req->now_us);
    const int64_t rewound = undone > 0 ? soft_delete_events(store, session, cut, req->now_us) : 0;
    session.version += 1;
    touch_session(store, ref, req->now_us, true);
    if (const EventRec* target = undone > 0 ? session.events.find_deleted(target_seq) : nullptr)
        emit_event(sink, *target);
    const mnemo_rewind_result result{session.version, rewound, undone};
    emit_result<&mnemo_sink::rewound>(sink, &result);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
