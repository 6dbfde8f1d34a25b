// Lanes: read one, write one with compare-and-set (optionally creating its
// new session and marking the old one for finalize, all under one lock),
// list an app's lanes, and recovery after an unclean stop.
#include "emit.h"
#include "errors.h"
#include "lanes.h"
#include "lifecycle.h"
#include "ops.h"
#include "session_draft.h"

#include <climits>
#include <mutex>

namespace mnemo::memory {

namespace {

// The created session must be the one the new lane row points at.
int check_new_session(const mnemo_lane_write_req& req, mnemo_error* err) {
    const mnemo_key& key = req.session.key;
    if (view(key.app) == view(req.lane.app) && view(key.user) == view(req.lane.user) &&
        view(key.session_id) == view(req.lane.session_id))
        return MNEMO_OK;
    return fail(err, MNEMO_E_INVALID,
                "lane %.*s of app %.*s points at session %.*s/%.*s but the session to create is %.*s/%.*s in app "
                "%.*s; create the session the lane points at",
                MNEMO_STR_ARG(req.lane.lane), MNEMO_STR_ARG(req.lane.app), MNEMO_STR_ARG(req.lane.user),
                MNEMO_STR_ARG(req.lane.session_id), MNEMO_STR_ARG(key.user), MNEMO_STR_ARG(key.session_id),
                MNEMO_STR_ARG(key.app));
}

// A session that is gone already has nothing left to finalize.
void mark_reset(Store& store, const mnemo_lane_write_req& req) {
    if (!req.finalize_session_id.ptr) return;
    SessionRef old = find_session(store, mnemo_key{req.lane.app, req.lane.user, req.finalize_session_id});
    if (old.session) mark_finalize(store, *old.session, MNEMO_FINALIZE_RESET, req.now_us);
}

enum class Recovered { Untouched, Pending, Suspended };

Recovered recover_lane(LaneRec& lane, const mnemo_lane_recover_req& req) {
    if (lane.suspended) return Recovered::Untouched;
    if (lane.resume_pending) {
        lane.restart_count += 1;
    } else if (lane.updated_at_us >= req.now_us - req.resume_window_us) {
        lane.resume_pending = true;
        lane.resume_reason = std::string("restart_interrupted");
        lane.restart_count = 1;
    } else {
        return Recovered::Untouched;
    }
    lane.version += 1;
    if (req.stuck_after_restarts <= 0 || lane.restart_count < req.stuck_after_restarts) return Recovered::Pending;
    lane.suspended = true;
    lane.resume_pending = false;
    return Recovered::Suspended;
}

}  // namespace

int lane_get(mnemo_backend* backend, const mnemo_lane_get_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    AppRec* app = find_app(store, view(req->app));
    const LaneRec* lane = app ? find_lane(*app, view(req->lane)) : nullptr;
    if (!lane) return lane_not_found(err, req->app, req->lane);
    emit_lane(sink, *lane);
    SessionRef ref = find_session(store, mnemo_key{req->app, out(lane->user), out(lane->session_id)});
    if (!ref.session || !ref.session->visible(req->now_us)) return MNEMO_OK;
    const mnemo_session row = session_row(*ref.session);
    emit_result<&mnemo_sink::lane_session>(sink, &row, ref.session->events.visible_count());
    return MNEMO_OK;
}

int lane_write(mnemo_backend* backend, const mnemo_lane_write_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    AppRec* app = find_app(store, view(req->lane.app));
    const LaneRec* current = app ? find_lane(*app, view(req->lane.lane)) : nullptr;
    if (int rc = check_lane_version(err, req->lane, req->expected_version, current ? current->version : 0)) return rc;
    SessionDraft draft;
    if (req->create_session) {
        if (int rc = check_new_session(*req, err)) return rc;
        if (int rc = draft_session(store, req->session, draft, err)) return rc;
    }
    LaneRec row = lane_from(req->lane);
    row.version = current ? current->version + 1 : 1;
    row.created_at_us = current ? current->created_at_us : req->now_us;
    mark_reset(store, *req);
    SessionRef created = req->create_session ? commit_session(store, draft, req->session) : SessionRef{};
    AppRec& owner = ensure_app(store, row.app);  // before row is moved from
    emit_lane(sink, put_lane(store, owner, std::move(row)));
    if (created.session) {
        emit_session(sink, *created.session);
        emit_merged_state(sink, created, req->now_us);
    }
    return MNEMO_OK;
}

int lane_list(mnemo_backend* backend, const mnemo_lane_list_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    AppRec* app = find_app(store, view(req->app));
    if (!app) return MNEMO_OK;
    const LaneIndex& index = app->lane_index;
    auto it = req->cursor_updated_at_us == 0 ? index.begin()
                                             : index.upper_bound({req->cursor_updated_at_us, copy(req->cursor_lane)});
    const int64_t oldest = req->active_within_us > 0 ? req->now_us - req->active_within_us : INT64_MIN;
    for (int64_t sent = 0; it != index.end() && (req->limit <= 0 || sent < req->limit); ++it, ++sent) {
        if (it->first < oldest) break;
        emit_lane(sink, *find_lane(*app, it->second));
    }
    return MNEMO_OK;
}

int lane_recover(mnemo_backend* backend, const mnemo_lane_recover_req* req, const mnemo_sink* sink,
                 mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    mnemo_recover_result result{};
    for (auto& [app_name, app] : store.apps) {
        for (auto& [name, lane] : app.lanes) {
            Recovered outcome = recover_lane(lane, *req);
            result.resume_pending += outcome == Recovered::Pending ? 1 : 0;
            result.suspended += outcome == Recovered::Suspended ? 1 : 0;
        }
    }
    emit_result<&mnemo_sink::recovered>(sink, &result);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
