// Export: one bounded step of an app's live data as mnemo_record's, in the
// order mnemo_export_req defines (its memory steps: memory_records.cpp). Rows are built by the same emit_* helpers
// reads use, into ExportRecords, which turns each row into a record of the
// item currently being walked (its session key, state scope, track).
#include "emit.h"
#include "export_records.h"
#include "memory_records.h"
#include "ops.h"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace mnemo::memory {

namespace {

using host::ExportRecords;

void export_scope(ExportRecords& records, int scope, const Scope& state, mnemo_key owner) {
    records.set_owner(owner.app, owner.user, owner.session_id);
    records.set_scope_expiry(state.expires_at_us);
    emit_scope(records.rows(), scope, state);
}

// App state, every user's state, every lane: the first step's head.
void export_app_wide(ExportRecords& records, const AppRec& app, const mnemo_export_req& req) {
    const mnemo_str none{nullptr, 0};
    if (app.state.live(req.now_us)) export_scope(records, MNEMO_SCOPE_APP, app.state, {req.app, none, none});
    std::vector<std::pair<std::string_view, const UserRec*>> users;
    for (const auto& [name, user] : app.users) users.emplace_back(name, &user);
    std::sort(users.begin(), users.end());
    for (const auto& [name, user] : users) {
        if (user->state.live(req.now_us))
            export_scope(records, MNEMO_SCOPE_USER, user->state, {req.app, mnemo_str{name.data(), name.size()}, none});
    }
    records.set_owner(none, none, none);
    for (const auto& [name, lane] : app.lanes) emit_lane(records.rows(), lane);
}

void export_session(ExportRecords& records, const SessionRec& session) {
    const mnemo_key key{out(session.app), out(session.user), out(session.id)};
    const mnemo_sink* rows = records.rows();
    records.set_owner(key.app, key.user, key.session_id);
    emit_session(rows, session);
    export_scope(records, MNEMO_SCOPE_SESSION, session.state, key);
    for (const EventRec& event : session.events.visible()) emit_event(rows, event);
    for (const auto& [filter_key, history] : session.summaries)
        for (const SummaryRec& summary : history) emit_summary(rows, summary);
    for (const auto& [name, track] : session.tracks) {
        records.set_track(out(name));
        for (const TrackEventRec& event : track.events) emit_track(rows, event);
    }
}

using SessionOrder = std::vector<const SessionRec*>;

// The app's live sessions strictly after the cursor, in (user, id) order.
SessionOrder sessions_after(const AppRec& app, const mnemo_export_req& req) {
    SessionOrder order;
    const bool first = req.cursor_user.ptr == nullptr;
    const auto cursor = std::make_pair(view(req.cursor_user), view(req.cursor_id));
    for (const auto& [user_name, user] : app.users) {
        if (!first && std::string_view(user_name) < cursor.first) continue;
        for (const auto& [id, session] : user.sessions) {
            if (!session->visible(req.now_us)) continue;
            if (!first && std::make_pair(std::string_view(user_name), std::string_view(id)) <= cursor) continue;
            order.push_back(session.get());
        }
    }
    std::sort(order.begin(), order.end(), [](const SessionRec* a, const SessionRec* b) {
        return std::tie(a->user, a->id) < std::tie(b->user, b->id);
    });
    return order;
}

}  // namespace

int export_step(mnemo_backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink,
                mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    if (req->memories) {
        export_memories(store.memories, *req, sink);
        return MNEMO_OK;
    }
    const AppRec* app = find_app(store, view(req->app));
    if (!app) return MNEMO_OK;
    ExportRecords records(*sink);
    if (req->cursor_user.ptr == nullptr) export_app_wide(records, *app, *req);
    SessionOrder order = sessions_after(*app, *req);
    const size_t limit = req->limit > 0 ? static_cast<size_t>(req->limit) : order.size();
    for (size_t i = 0; i < order.size() && i < limit; ++i) export_session(records, *order[i]);
    if (order.size() > limit && sink->more) sink->more(sink->ctx);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
