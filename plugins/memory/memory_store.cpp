#include "memory_store.h"

#include "lifecycle.h"

namespace mnemo::memory {

AppRec* find_app(Store& store, std::string_view app) {
    auto found = store.apps.find(app);
    return found == store.apps.end() ? nullptr : &found->second;
}

UserRec* find_user(Store& store, std::string_view app, std::string_view user) {
    AppRec* app_rec = find_app(store, app);
    if (!app_rec) return nullptr;
    auto found = app_rec->users.find(user);
    return found == app_rec->users.end() ? nullptr : &found->second;
}

SessionRef find_session(Store& store, const mnemo_key& key) {
    SessionRef ref;
    ref.app = find_app(store, view(key.app));
    if (!ref.app) return ref;
    auto user = ref.app->users.find(view(key.user));
    if (user == ref.app->users.end()) return ref;
    ref.user = &user->second;
    auto session = ref.user->sessions.find(view(key.session_id));
    if (session != ref.user->sessions.end()) ref.session = session->second.get();
    return ref;
}

AppRec& ensure_app(Store& store, std::string_view app) {
    auto found = store.apps.find(app);
    if (found != store.apps.end()) return found->second;
    return store.apps.emplace(std::string(app), AppRec{}).first->second;
}

UserRec& ensure_user(AppRec& app, std::string_view user) {
    auto found = app.users.find(user);
    if (found != app.users.end()) return found->second;
    return app.users.emplace(std::string(user), UserRec{}).first->second;
}

std::unique_ptr<SessionRec> new_session(const mnemo_key& key, int64_t now_us, int64_t ttl_us) {
    auto session = std::make_unique<SessionRec>();
    session->app = copy(key.app);
    session->user = copy(key.user);
    session->id = copy(key.session_id);
    session->created_at_us = now_us;
    session->updated_at_us = now_us;
    session->ttl_us = ttl_us;
    session->expires_at_us = expiry_after(now_us, ttl_us);
    return session;
}

static ListKey list_key(const SessionRec& session) {
    return ListKey{session.updated_at_us, session.user, session.id, &session};
}

void index_session(const SessionRef& ref) {
    ref.app->index.insert(list_key(*ref.session));
    ref.user->index.insert(list_key(*ref.session));
}

void unindex_session(const SessionRef& ref) {
    ref.app->index.erase(list_key(*ref.session));
    ref.user->index.erase(list_key(*ref.session));
}

SessionRef attach_session(Store& store, std::unique_ptr<SessionRec> session) {
    SessionRef ref;
    ref.app = &ensure_app(store, session->app);
    ref.user = &ensure_user(*ref.app, session->user);
    auto slot = ref.user->sessions.find(session->id);
    if (slot != ref.user->sessions.end()) {
        forget_session(store, SessionRef{ref.app, ref.user, slot->second.get()});
        slot->second = std::move(session);
    } else {
        slot = ref.user->sessions.emplace(session->id, std::move(session)).first;
    }
    ref.session = slot->second.get();
    index_session(ref);
    const int64_t expires_at_us = ref.session->expires_at_us;
    ref.session->expires_at_us = 0;
    set_session_expiry(store, *ref.session, expires_at_us);
    return ref;
}

namespace {

// Re-keys one index entry to the new updated_at without a new allocation; a
// write makes the session the newest, so the front is the right hint.
void move_to_newest(SessionIndex& index, const SessionRec& session, int64_t now_us) {
    auto node = index.extract(list_key(session));
    if (node.empty()) return;
    node.value().updated_at_us = now_us;
    index.insert(index.begin(), std::move(node));
}

}  // namespace

void touch_session(Store& store, const SessionRef& ref, int64_t now_us, bool bump_updated_at) {
    SessionRec& session = *ref.session;
    if (session.ttl_us > 0) set_session_expiry(store, session, now_us + session.ttl_us);
    if (!bump_updated_at || session.updated_at_us == now_us) return;
    move_to_newest(ref.app->index, session, now_us);
    move_to_newest(ref.user->index, session, now_us);
    session.updated_at_us = now_us;
}

}  // namespace mnemo::memory
