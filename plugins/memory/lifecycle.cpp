#include "lifecycle.h"

namespace mnemo::memory {

void set_session_expiry(Store& store, SessionRec& session, int64_t expires_at_us) {
    if (session.expires_at_us > 0) store.expiring.erase({session.expires_at_us, &session});
    session.expires_at_us = expires_at_us;
    if (expires_at_us > 0 && session.deleted_at_us == 0) store.expiring.emplace(expires_at_us, &session);
}

void mark_finalize(Store& store, SessionRec& session, int reason, int64_t now_us) {
    if (session.finalize_reason != 0) return;
    session.finalize_reason = reason;
    session.finalize_marked_at_us = now_us;
    store.finalizing.emplace(now_us, &session);
}

void finish_finalize(Store& store, SessionRec& session, int64_t now_us) {
    if (!session.finalize_pending()) return;
    store.finalizing.erase({session.finalize_marked_at_us, &session});
    session.finalized_at_us = now_us;
    if (session.deleted_at_us > 0) store.purgeable.emplace(session.deleted_at_us, &session);
}

void soft_delete_session(Store& store, const SessionRef& ref, int64_t now_us, int reason) {
    SessionRec& session = *ref.session;
    unindex_session(ref);
    if (session.expires_at_us > 0) store.expiring.erase({session.expires_at_us, &session});
    session.deleted_at_us = now_us;
    mark_finalize(store, session, reason, now_us);
    if (!session.finalize_pending()) store.purgeable.emplace(now_us, &session);
}

void forget_session(Store& store, const SessionRef& ref) {
    SessionRec& session = *ref.session;
    if (session.deleted_at_us == 0) unindex_session(ref);
    store.indexer.remove_session(*ref.app, session);
    if (session.expires_at_us > 0) store.expiring.erase({session.expires_at_us, &session});
    if (session.deleted_at_us > 0) store.purgeable.erase({session.deleted_at_us, &session});
    if (session.finalize_pending()) store.finalizing.erase({session.finalize_marked_at_us, &session});
    for (const auto& [seq, event] : session.events.deleted())
        store.deleted_events.erase({event.deleted_at_us(), &session, seq});
}

void purge_session(Store& store, const SessionRef& ref) {
    forget_session(store, ref);
    ref.user->sessions.erase(std::string(ref.session->id));  // a copy: the key dies with the node
}

int64_t soft_delete_events(Store& store, SessionRec& session, size_t from, int64_t now_us) {
    const auto& visible = session.events.visible();
    for (size_t i = from; i < visible.size(); ++i) store.deleted_events.emplace(now_us, &session, visible[i].seq());
    if (AppRec* app = find_app(store, session.app)) store.indexer.remove_from(*app, session, from);
    return session.events.soft_delete_from(from, now_us);
}

}  // namespace mnemo::memory
