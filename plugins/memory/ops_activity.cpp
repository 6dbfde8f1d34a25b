// app_list and user_list (ABI 7): the apps and users holding data, with
// their counts, under the store's shared lock. Both walk every row they
// count: an operator's occasional look, not a hot path.
#include "emit.h"
#include "errors.h"
#include "memory_store.h"
#include "ops.h"

#include <algorithm>
#include <map>
#include <set>
#include <shared_mutex>
#include <vector>

namespace mnemo::memory {
namespace {

struct Activity {
    int64_t sessions = 0, events = 0, memories = 0, last_active_at_us = 0;
    bool holds_data() const { return sessions > 0 || memories > 0; }
};

using UserActivity = std::map<std::string, Activity, std::less<>>;

// Every user of the app with its live sessions and memories counted.
UserActivity users_of(Store& store, std::string_view app_name, int64_t now_us) {
    UserActivity users;
    if (const AppRec* app = find_app(store, app_name)) {
        for (const auto& [name, user] : app->users) {
            for (const auto& [id, session] : user.sessions) {
                if (!session->visible(now_us)) continue;
                Activity& a = users[name];
                ++a.sessions;
                a.events += session->events.visible_count();
                a.last_active_at_us = std::max(a.last_active_at_us, session->updated_at_us);
            }
        }
    }
    if (const AppMemories* app = store.memories.find_app(app_name)) {
        for (const auto& [name, user] : app->users) {
            for (const auto& [id, row] : user.by_id) {
                if (!row->live(now_us)) continue;
                Activity& a = users[name];
                ++a.memories;
                a.last_active_at_us = std::max(a.last_active_at_us, row->updated_at_us);
            }
        }
    }
    std::erase_if(users, [](const auto& entry) { return !entry.second.holds_data(); });
    return users;
}

void emit_activity(const mnemo_sink* sink, std::string_view name, const Activity& a, int64_t users) {
    mnemo_activity row{mnemo_str{name.data(), name.size()}, users, a.sessions, a.events, a.memories, a.last_active_at_us};
    emit_result<&mnemo_sink::activity>(sink, &row);
}

// (last_active_at desc, user desc): whether a comes first.
bool more_recent(const std::pair<std::string_view, Activity>& a, const std::pair<std::string_view, Activity>& b) {
    if (a.second.last_active_at_us != b.second.last_active_at_us)
        return a.second.last_active_at_us > b.second.last_active_at_us;
    return a.first > b.first;
}

}  // namespace

int app_list(mnemo_backend* backend, const mnemo_app_list_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    std::set<std::string, std::less<>> names;
    for (const auto& [name, app] : store.apps) names.insert(name);
    for (const auto& [name, app] : store.memories.apps()) names.insert(name);
    for (const std::string& name : names) {
        Activity total;
        int64_t users = 0;
        for (const auto& [user, a] : users_of(store, name, req->now_us)) {
            ++users;
            total.sessions += a.sessions;
            total.events += a.events;
            total.memories += a.memories;
            total.last_active_at_us = std::max(total.last_active_at_us, a.last_active_at_us);
        }
        if (users > 0) emit_activity(sink, name, total, users);
    }
    return MNEMO_OK;
}

int user_list(mnemo_backend* backend, const mnemo_user_list_req* req, const mnemo_sink* sink, mnemo_error* err) {
    if (req->limit < 1)
        return fail(err, MNEMO_E_INVALID, "user list limit is %lld; give at least 1", static_cast<long long>(req->limit));
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    UserActivity users = users_of(store, view(req->app), req->now_us);
    std::vector<std::pair<std::string_view, Activity>> order(users.begin(), users.end());
    std::sort(order.begin(), order.end(), more_recent);
    std::pair<std::string_view, Activity> cursor{view(req->cursor_user), Activity{}};
    cursor.second.last_active_at_us = req->cursor_active_at_us;
    auto it = req->cursor_active_at_us > 0 ? std::upper_bound(order.begin(), order.end(), cursor, more_recent)
                                           : order.begin();
    for (int64_t sent = 0; it != order.end() && sent < req->limit; ++it, ++sent)
        emit_activity(sink, it->first, it->second, 0);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
