// The memory operations that read: memory_get, memory_list, memory_search,
// memory_keys, memory_candidates, memory_changes, memory_pending and
// memory_count, each under the store's shared lock. Expired memories are
// absent to all of them (the feed shows them as removed).
#include "errors.h"
#include "memories_search.h"
#include "memory_emit.h"
#include "memory_filter.h"
#include "memory_store.h"
#include "emit.h"
#include "ops.h"

#include <shared_mutex>

namespace mnemo::memory {

namespace {

int check_limit(mnemo_error* err, const char* operation, int64_t limit) {
    if (limit > 0) return MNEMO_OK;
    return fail(err, MNEMO_E_INVALID, "%s limit is %lld; give at least 1", operation, static_cast<long long>(limit));
}

// Whether a row of the list's user passes its filters.
bool listed(const mnemo_memory_list_req& req, const MemoryRec& row) {
    if (!row.live(req.now_us)) return false;
    if (req.name_space.ptr && row.name_space != view(req.name_space)) return false;
    if (req.session_id.ptr && row.session_id != view(req.session_id)) return false;
    return host::passes_list_filters(req, row);
}

void count_status(mnemo_memory_count_result& count, const MemoryRec& row) {
    ++count.total;
    if (row.embedding == MNEMO_EMBEDDING_PENDING)
        ++count.pending;
    else if (row.embedding == MNEMO_EMBEDDING_READY)
        ++count.ready;
    else if (row.embedding == MNEMO_EMBEDDING_FAILED)
        ++count.failed;
    else
        ++count.none;
}

void count_app(const AppMemories& app, const mnemo_memory_count_req& req, mnemo_memory_count_result& count) {
    for (const auto& [name, user] : app.users) {
        if (req.user.ptr && name != view(req.user)) continue;
        for (const auto& [id, row] : user.by_id) {
            if (!row->live(req.now_us)) continue;
            count_status(count, *row);
            if (!row->vector.empty() && static_cast<int64_t>(row->vector.size()) != app.dimension) ++count.stale;
        }
    }
}

}  // namespace

int memory_get(mnemo_backend* backend, const mnemo_memory_get_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    const mnemo_memory_ref& ref = req->ref;
    const MemoryRec* row = store.memories.live_by_id(view(ref.app), view(ref.user), view(ref.id), ref.now_us);
    if (!row)
        return fail(err, MNEMO_E_NOT_FOUND, "memory %.*s of user %.*s in app %.*s not found (deleted or expired?)",
                    MNEMO_STR_ARG(ref.id), MNEMO_STR_ARG(ref.user), MNEMO_STR_ARG(ref.app));
    emit_memory(sink, *row, req->with_vector != 0);
    return MNEMO_OK;
}

int memory_list(mnemo_backend* backend, const mnemo_memory_list_req* req, const mnemo_sink* sink, mnemo_error* err) {
    if (int rc = check_limit(err, "memory list", req->limit); rc != MNEMO_OK) return rc;
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    const UserMemories* user = store.memories.find_user(view(req->app), view(req->user));
    if (!user) return MNEMO_OK;
    // by_update ascends by (updated_at, id): a page walks it backwards from just below the cursor.
    auto it = req->cursor_updated_at_us > 0
                  ? user->by_update.lower_bound(std::make_pair(req->cursor_updated_at_us, copy(req->cursor_id)))
                  : user->by_update.end();
    int64_t sent = 0;
    while (it != user->by_update.begin()) {
        const MemoryRec& row = *(--it)->second;
        if (!listed(*req, row)) continue;
        if (sent == req->limit) {
            emit_result<&mnemo_sink::has_more>(sink);
            break;
        }
        emit_memory(sink, row, false);
        ++sent;
    }
    return MNEMO_OK;
}

int memory_search(mnemo_backend* backend, const mnemo_memory_search_req* req, const mnemo_sink* sink,
                  mnemo_error* err) {
    if (int rc = check_limit(err, "memory search", req->limit); rc != MNEMO_OK) return rc;
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    for (const KeywordHit& hit :
         keyword_recall(store.memories, req->filter, view(req->q), req->match, static_cast<size_t>(req->limit)))
        emit_memory_hit(sink, *hit.row, hit.relevance);
    return MNEMO_OK;
}

int memory_keys(mnemo_backend* backend, const mnemo_memory_keys_req* req, const mnemo_sink* sink,
                mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    for (size_t i = 0; i < req->n_keys; ++i) {
        const MemoryRec* row = store.memories.find_key(req->keys[i]);
        if (row && passes(req->filter, *row)) emit_memory(sink, *row, req->with_vector != 0);
    }
    return MNEMO_OK;
}

int memory_candidates(mnemo_backend* backend, const mnemo_memory_candidates_req* req, const mnemo_sink* sink,
                      mnemo_error* err) {
    if (int rc = check_limit(err, "memory candidates", req->limit); rc != MNEMO_OK) return rc;
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    int64_t sent = 0;
    for_each_in_scope(store.memories, req->filter, [&](const MemoryRec& row) {
        if (sent > req->limit || row.vector.empty() || !passes(req->filter, row)) return;
        emit_result<&mnemo_sink::memory_key>(sink, row.key);
        ++sent;
    });
    return MNEMO_OK;
}

int memory_changes(mnemo_backend* backend, const mnemo_memory_changes_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    if (int rc = check_limit(err, "memory changes", req->limit); rc != MNEMO_OK) return rc;
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    const MemoryStore& memories = store.memories;
    mnemo_memory_feed_result result{req->after_seq, memories.horizon(), 0};
    if (req->after_seq > 0 && req->after_seq < memories.horizon()) {
        // The removals it would need were forgotten: start again from 0.
        emit_result<&mnemo_sink::memory_feed>(sink, &result);
        return MNEMO_OK;
    }
    int64_t sent = 0;
    for (auto it = memories.feed().upper_bound(req->after_seq); it != memories.feed().end(); ++it) {
        if (sent == req->limit) {
            result.more = 1;
            break;
        }
        const FeedEntry& entry = it->second;
        if (entry.row)
            emit_memory(sink, *entry.row, true);
        else
            emit_memory_removal(sink, entry);
        result.last_seq = it->first;
        ++sent;
    }
    emit_result<&mnemo_sink::memory_feed>(sink, &result);
    return MNEMO_OK;
}

int memory_pending(mnemo_backend* backend, const mnemo_memory_pending_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    if (int rc = check_limit(err, "memory pending", req->limit); rc != MNEMO_OK) return rc;
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    int64_t sent = 0;
    const auto& pending = store.memories.pending();
    for (auto it = pending.upper_bound(req->after_key); it != pending.end() && sent < req->limit; ++it) {
        const MemoryRec* row = store.memories.find_key(*it);
        if (!row->live(req->now_us)) continue;
        emit_memory(sink, *row, false);
        ++sent;
    }
    return MNEMO_OK;
}

int memory_count(mnemo_backend* backend, const mnemo_memory_count_req* req, const mnemo_sink* sink,
                 mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    mnemo_memory_count_result count{};
    if (!req->app.ptr) {
        for (const auto& [name, app] : store.memories.apps()) count_app(app, *req, count);
    } else if (const AppMemories* app = store.memories.find_app(view(req->app))) {
        count_app(*app, *req, count);
        count.dimension = app->dimension;
    }
    emit_result<&mnemo_sink::memory_count>(sink, &count);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
