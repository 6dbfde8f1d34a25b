// Export: one bounded step of an app's live data as mnemo_record's, in the
// order mnemo_export_req defines (its memory steps: memory_records.cpp). Rows are built by the same emit_* helpers
// reads use, through a mnemo_sink that turns each row into a record of the
// item currently being walked (its session key, state scope, track).
#include "emit.h"
#include "memory_records.h"
#include "ops.h"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace mnemo::memory {

namespace {

// What the rows emitted next belong to.
struct RecordContext {
    const mnemo_record_sink* sink = nullptr;
    mnemo_key key{};
    int64_t expires_at_us = 0;  // of the state scope being emitted
    mnemo_str track{};
};

void send(RecordContext& context, mnemo_record& record) {
    record.key = context.key;
    if (context.sink->record) context.sink->record(context.sink->ctx, &record);
}

void on_session(void* ctx, const mnemo_session* session) {
    mnemo_record record{};
    record.kind = MNEMO_RECORD_SESSION;
    record.session = session;
    send(*static_cast<RecordContext*>(ctx), record);
}

void on_state(void* ctx, int scope, mnemo_str key, mnemo_str value_json) {
    auto& context = *static_cast<RecordContext*>(ctx);
    mnemo_record record{};
    record.kind = MNEMO_RECORD_STATE;
    record.scope = scope;
    record.state_key = key;
    record.value_json = value_json;
    record.expires_at_us = context.expires_at_us;
    send(context, record);
}

void on_event(void* ctx, const mnemo_event* event) {
    mnemo_record record{};
    record.kind = MNEMO_RECORD_EVENT;
    record.event = event;
    send(*static_cast<RecordContext*>(ctx), record);
}

void on_summary(void* ctx, const mnemo_summary* summary) {
    mnemo_record record{};
    record.kind = MNEMO_RECORD_SUMMARY;
    record.summary = summary;
    send(*static_cast<RecordContext*>(ctx), record);
}

void on_track(void* ctx, const mnemo_track_event* track) {
    auto& context = *static_cast<RecordContext*>(ctx);
    mnemo_record record{};
    record.kind = MNEMO_RECORD_TRACK;
    record.track = context.track;
    record.track_event = track;
    send(context, record);
}

void on_lane(void* ctx, const mnemo_lane* lane) {
    mnemo_record record{};
    record.kind = MNEMO_RECORD_LANE;
    record.lane = lane;
    send(*static_cast<RecordContext*>(ctx), record);
}

mnemo_sink record_adapter(RecordContext& context) {
    mnemo_sink rows{};
    rows.ctx = &context;
    rows.session = on_session;
    rows.state = on_state;
    rows.event = on_event;
    rows.summary = on_summary;
    rows.track = on_track;
    rows.lane = on_lane;
    return rows;
}

void export_scope(RecordContext& context, const mnemo_sink* rows, int scope, const Scope& state, mnemo_key owner) {
    context.key = owner;
    context.expires_at_us = scope == MNEMO_SCOPE_SESSION ? 0 : state.expires_at_us;
    emit_scope(rows, scope, state);
}

// App state, every user's state, every lane: the first step's head.
void export_app_wide(RecordContext& context, const mnemo_sink* rows, const AppRec& app, const mnemo_export_req& req) {
    const mnemo_str none{nullptr, 0};
    if (app.state.live(req.now_us)) export_scope(context, rows, MNEMO_SCOPE_APP, app.state, {req.app, none, none});
    std::vector<std::pair<std::string_view, const UserRec*>> users;
    for (const auto& [name, user] : app.users) users.emplace_back(name, &user);
    std::sort(users.begin(), users.end());
    for (const auto& [name, user] : users) {
        if (user->state.live(req.now_us))
            export_scope(context, rows, MNEMO_SCOPE_USER, user->state,
                         {req.app, mnemo_str{name.data(), name.size()}, none});
    }
    context.key = mnemo_key{};
    for (const auto& [name, lane] : app.lanes) emit_lane(rows, lane);
}

void export_session(RecordContext& context, const mnemo_sink* rows, const SessionRec& session) {
    const mnemo_key key{out(session.app), out(session.user), out(session.id)};
    context.key = key;
    emit_session(rows, session);
    export_scope(context, rows, MNEMO_SCOPE_SESSION, session.state, key);
    for (const EventRec& event : session.events.visible()) emit_event(rows, event);
    for (const auto& [filter_key, history] : session.summaries)
        for (const SummaryRec& summary : history) emit_summary(rows, summary);
    for (const auto& [name, track] : session.tracks) {
        context.track = out(name);
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
    RecordContext context;
    context.sink = sink;
    const mnemo_sink rows = record_adapter(context);
    if (req->cursor_user.ptr == nullptr) export_app_wide(context, &rows, *app, *req);
    SessionOrder order = sessions_after(*app, *req);
    const size_t limit = req->limit > 0 ? static_cast<size_t>(req->limit) : order.size();
    for (size_t i = 0; i < order.size() && i < limit; ++i) export_session(context, &rows, *order[i]);
    if (order.size() > limit && sink->more) sink->more(sink->ctx);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
