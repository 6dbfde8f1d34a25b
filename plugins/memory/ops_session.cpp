// Sessions: create, get, list and delete.
#include "emit.h"
#include "errors.h"
#include "event_filter.h"
#include "lifecycle.h"
#include "ops.h"
#include "session_draft.h"

#include <mutex>
#include <optional>
#include <string_view>

namespace mnemo::memory {

namespace {

void emit_events(const mnemo_sink* sink, const SessionRec& session, const mnemo_event_filter& filter) {
    if (filter.from_checkpoint) {
        if (const SummaryRec* summary = latest_summary(session, view(filter.filter_key))) emit_summary(sink, *summary);
    }
    EventSelection selection = select_events(session, filter);
    for (const EventRec* event : selection.events) emit_event(sink, *event);
    if (selection.has_more) emit_result<&mnemo_sink::has_more>(sink);
}

// The first row after the cursor. A cursor whose user is unknown (an old
// page token) starts at its updated_at; before_cursor() skips that time's
// rows it already passed.
SessionIndex::const_iterator page_start(const SessionIndex& index, const mnemo_session_list_req& req,
                                        std::optional<std::string_view> cursor_user) {
    if (req.cursor_updated_at_us == 0) return index.begin();
    if (!cursor_user) return index.lower_bound(ListTime{req.cursor_updated_at_us});
    return index.upper_bound(ListCursor{req.cursor_updated_at_us, *cursor_user, view(req.cursor_id)});
}

bool before_cursor(const ListKey& key, const mnemo_session_list_req& req, std::optional<std::string_view> cursor_user) {
    return !cursor_user && key.updated_at_us == req.cursor_updated_at_us && key.id >= view(req.cursor_id);
}

// Lists one index from the cursor, newest first, stopping at active_within.
// cursor_user: the user of the cursor row, nullopt when unknown.
void list_index(const SessionIndex& index, const mnemo_session_list_req& req,
                std::optional<std::string_view> cursor_user, const mnemo_sink* sink) {
    const int64_t oldest = req.active_within_us > 0 ? req.now_us - req.active_within_us : INT64_MIN;
    int64_t sent = 0;
    for (auto it = page_start(index, req, cursor_user); it != index.end() && (req.limit <= 0 || sent < req.limit);
         ++it) {
        if (it->updated_at_us < oldest) break;
        if (before_cursor(*it, req, cursor_user) || !it->session->visible(req.now_us)) continue;
        emit_session(sink, *it->session);
        ++sent;
    }
}

}  // namespace

int session_create(mnemo_backend* backend, const mnemo_session_create_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionDraft draft;
    if (int rc = draft_session(store, *req, draft, err)) return rc;
    SessionRef ref = commit_session(store, draft, *req);
    emit_session(sink, *ref.session);
    emit_merged_state(sink, ref, req->now_us);
    return MNEMO_OK;
}

int session_get(mnemo_backend* backend, const mnemo_session_get_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    emit_session(sink, *ref.session);
    emit_merged_state(sink, ref, req->now_us);
    if (req->with_events) emit_events(sink, *ref.session, req->filter);
    return MNEMO_OK;
}

int session_list(mnemo_backend* backend, const mnemo_session_list_req* req, const mnemo_sink* sink,
                 mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    if (req->user.ptr == nullptr) {
        std::optional<std::string_view> cursor_user;
        if (req->cursor_user.ptr != nullptr) cursor_user = view(req->cursor_user);
        if (const AppRec* app = find_app(store, view(req->app))) list_index(app->index, *req, cursor_user, sink);
    } else if (const UserRec* user = find_user(store, view(req->app), view(req->user))) {
        list_index(user->index, *req, view(req->user), sink);
    }
    return MNEMO_OK;
}

// A hard delete shows the session to mnemod first: nothing is left to finalize later.
int session_delete(mnemo_backend* backend, const mnemo_session_delete_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    if (req->hard) {
        emit_session(sink, *ref.session);
        purge_session(store, ref);
    } else {
        soft_delete_session(store, ref, req->now_us, MNEMO_FINALIZE_DELETED);
    }
    return MNEMO_OK;
}

}  // namespace mnemo::memory
