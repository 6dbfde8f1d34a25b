// The memory operations that write: memory_write (retry, update, dedupe,
// create), memory_patch, memory_delete, memory_embed and memory_reembed.
// Each runs under the store's exclusive lock and checks everything before it
// changes anything, so a refused request leaves the store as it was.
#include "emit.h"
#include "errors.h"
#include "memory_emit.h"
#include "memory_store.h"
#include "ops.h"
#include "vector_dimension.h"

#include <mutex>
#include <unordered_set>

namespace mnemo::memory {

namespace {

// OK when the vector (if any) has the wanted dimension; the first vector fixes *dimension.
int check_vector(mnemo_error* err, const std::string& where, mnemo_vector vector, std::string_view app,
                 int64_t* dimension) {
    if (!vector.values) return MNEMO_OK;
    const auto dims = static_cast<int64_t>(vector.dims);
    if (dims == 0) return fail(err, MNEMO_E_INVALID, "%s.embedding is empty; give the vector's numbers", where.c_str());
    if (*dimension == 0) *dimension = dims;
    if (dims == *dimension) return MNEMO_OK;
    return fail(err, MNEMO_E_INVALID, "%s", host::dimension_mismatch(where, dims, app, *dimension).c_str());
}

int check_text(mnemo_error* err, const std::string& where, const mnemo_memory_input& in) {
    if (!in.text.ptr) return MNEMO_OK;
    if (in.text.len == 0) return fail(err, MNEMO_E_INVALID, "%s.text is empty; give 1 byte or more", where.c_str());
    if (!in.folded_text.ptr)
        return fail(err, MNEMO_E_INVALID, "%s.folded_text is missing; the host folds every text it writes",
                    where.c_str());
    return MNEMO_OK;
}

// Given fields replace stored ones; a changed text drops the vector unless one is given.
void update(MemoryStore& memories, MemoryRec& row, const mnemo_memory_input& in, bool embedder, int64_t now_us) {
    memories.modify(row, [&](MemoryRec& r) {
        if (in.text.ptr && view(in.text) != r.text) {
            memories.replace_text(r, view(in.text), view(in.folded_text));
            host::text_replaced(r, embedder);
        }
        host::apply_write(r, in, now_us);
    });
    memories.fix_dimension(row);
}

MemoryRec& create(MemoryStore& memories, const mnemo_memory_write_req& req, const mnemo_memory_input& in) {
    auto row = std::make_unique<MemoryRec>();
    row->app = copy(req.app);
    row->user = copy(req.user);
    row->id = copy(in.id);
    row->set_text(view(in.text), view(in.folded_text));
    row->embedding = req.embedder ? MNEMO_EMBEDDING_PENDING : MNEMO_EMBEDDING_NONE;  // unless a vector is given
    host::apply_write(*row, in, req.now_us);
    row->created_at_us = req.now_us;
    MemoryRec& stored = memories.insert(std::move(row));
    memories.fix_dimension(stored);
    return stored;
}

std::string item_name(size_t index) {
    return "memories[" + std::to_string(index) + "]";
}

// Every item acceptable, with the batch's earlier items taken into account.
int check_batch(MemoryStore& memories, const mnemo_memory_write_req& req, mnemo_error* err) {
    if (req.n_items == 0) return fail(err, MNEMO_E_INVALID, "memories is empty; give at least one memory");
    int64_t dimension = memories.wanted_dimension(view(req.app), req.dimensions);
    std::unordered_set<std::string_view> ids_written;
    for (size_t i = 0; i < req.n_items; ++i) {
        const mnemo_memory_input& in = req.items[i];
        const std::string where = item_name(i);
        if (int rc = check_text(err, where, in); rc != MNEMO_OK) return rc;
        if (int rc = check_vector(err, where, in.vector, view(req.app), &dimension); rc != MNEMO_OK) return rc;
        const bool stored = ids_written.count(view(in.id)) ||
                            memories.live_by_id(view(req.app), view(req.user), view(in.id), req.now_us);
        if (!in.id_from_client && stored)
            return fail(err, MNEMO_E_INVALID, "%s.id %.*s was generated but already names a memory of user %.*s",
                        where.c_str(), MNEMO_STR_ARG(in.id), MNEMO_STR_ARG(req.user));
        if (!in.text.ptr && !(in.id_from_client && stored))
            return fail(err, MNEMO_E_INVALID, "%s.text is required: user %.*s has no memory %.*s to update",
                        where.c_str(), MNEMO_STR_ARG(req.user), MNEMO_STR_ARG(in.id));
        ids_written.insert(view(in.id));
    }
    return MNEMO_OK;
}

void write_item(MemoryStore& memories, const mnemo_memory_write_req& req, size_t index, const mnemo_sink* sink) {
    const mnemo_memory_input& in = req.items[index];
    const std::string_view app = view(req.app), user = view(req.user);
    memories.drop_expired(app, user, view(in.id), req.now_us);
    if (in.id_from_client) {
        if (MemoryRec* row = memories.live_by_id(app, user, view(in.id), req.now_us)) {
            if (!host::is_write_retry(*row, in)) update(memories, *row, in, req.embedder != 0, req.now_us);
            emit_memory_written(sink, index, *row, false);
            return;
        }
    } else if (MemoryRec* same =
                   memories.live_by_text(app, user, view(in.name_space), view(in.folded_text), req.now_us)) {
        memories.modify(*same, [&](MemoryRec& r) {
            r.updated_at_us = req.now_us;
            r.expires_at_us = expiry_after(req.now_us, in.ttl_us);
        });
        emit_memory_written(sink, index, *same, false);
        return;
    }
    emit_memory_written(sink, index, create(memories, req, in), true);
}

int not_found(mnemo_error* err, const mnemo_memory_ref& ref) {
    return fail(err, MNEMO_E_NOT_FOUND, "memory %.*s of user %.*s in app %.*s not found (deleted or expired?)",
                MNEMO_STR_ARG(ref.id), MNEMO_STR_ARG(ref.user), MNEMO_STR_ARG(ref.app));
}

}  // namespace

int memory_write(mnemo_backend* backend, const mnemo_memory_write_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    if (int rc = check_batch(store.memories, *req, err); rc != MNEMO_OK) return rc;
    for (size_t i = 0; i < req->n_items; ++i) write_item(store.memories, *req, i, sink);
    return MNEMO_OK;
}

int memory_patch(mnemo_backend* backend, const mnemo_memory_patch_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    const mnemo_memory_ref& ref = req->ref;
    MemoryRec* row = store.memories.live_by_id(view(ref.app), view(ref.user), view(ref.id), ref.now_us);
    if (!row) return not_found(err, ref);
    int64_t dimension = store.memories.wanted_dimension(view(ref.app), req->dimensions);
    if (int rc = check_text(err, "patch", req->fields); rc != MNEMO_OK) return rc;
    if (int rc = check_vector(err, "patch", req->fields.vector, view(ref.app), &dimension); rc != MNEMO_OK) return rc;
    update(store.memories, *row, req->fields, req->embedder != 0, ref.now_us);
    emit_memory(sink, *row, false);
    return MNEMO_OK;
}

int memory_delete(mnemo_backend* backend, const mnemo_memory_delete_req* req, const mnemo_sink* /*sink*/,
                  mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    const mnemo_memory_ref& ref = req->ref;
    MemoryRec* row = store.memories.live_by_id(view(ref.app), view(ref.user), view(ref.id), ref.now_us);
    if (!row) return not_found(err, ref);
    store.memories.remove(*row, ref.now_us);
    return MNEMO_OK;
}

int memory_embed(mnemo_backend* backend, const mnemo_memory_embed_req* req, const mnemo_sink* sink,
                 mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    int64_t stored = 0;
    for (size_t i = 0; i < req->n_items; ++i) {
        const mnemo_embedding_update& item = req->items[i];
        MemoryRec* row = store.memories.find_key(item.key);
        // Only a pending memory takes an embedder's answer: a vector the client
        // gave meanwhile (same text, so the same text_version) stays.
        if (!row || !row->live(req->now_us) || row->text_version != item.text_version ||
            row->embedding != MNEMO_EMBEDDING_PENDING) {
            continue;
        }
        int64_t dimension = store.memories.wanted_dimension(row->app, req->dimensions);
        const bool ready = item.status == MNEMO_EMBEDDING_READY && item.vector.values && item.vector.dims > 0 &&
                           (dimension == 0 || static_cast<int64_t>(item.vector.dims) == dimension);
        store.memories.modify(*row, [&](MemoryRec& r) {
            if (ready)
                host::store_vector(r, item.vector, item.model);
            else
                r.embedding = MNEMO_EMBEDDING_FAILED;
        });
        store.memories.fix_dimension(*row);
        ++stored;
    }
    emit_result<&mnemo_sink::memory_embedded>(sink, stored);
    return MNEMO_OK;
}

int memory_reembed(mnemo_backend* backend, const mnemo_memory_reembed_req* req, const mnemo_sink* sink,
                   mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    if (req->dimensions > 0) store.memories.ensure_app(view(req->app)).dimension = req->dimensions;
    mnemo_memory_count_result marked{};
    if (AppMemories* app = store.memories.find_app(view(req->app))) {
        std::vector<MemoryRec*> rows;
        for (auto& [user, memories] : app->users)
            for (auto& [id, row] : memories.by_id)
                if (row->live(req->now_us)) rows.push_back(row);
        for (MemoryRec* row : rows)
            store.memories.modify(*row, [](MemoryRec& r) { r.embedding = MNEMO_EMBEDDING_PENDING; });
        marked.total = marked.pending = static_cast<int64_t>(rows.size());
    }
    emit_result<&mnemo_sink::memory_count>(sink, &marked);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
