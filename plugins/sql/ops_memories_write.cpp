// The memory operations that write: memory_write (retry, update, dedupe,
// create), memory_patch, memory_delete, memory_embed and memory_reembed.
// Each takes the feed's clock first (memory_rows.h), so on a shared
// database every later read of the step sees the memories as the previous
// writer committed them; a StoreError thrown at any item undoes the whole
// step, which makes a batch all-or-nothing.
#include "dialect.h"
#include "memory_rows.h"
#include "sql_ops.h"
#include "vector_dimension.h"

namespace mnemo::sqlcore {
namespace {

std::string item_name(size_t index) {
    return "memories[" + std::to_string(index) + "]";
}

[[noreturn]] void invalid(const std::string& message) {
    throw StoreError(MNEMO_E_INVALID, message);
}

// The dimension vectors must have: the configured one, else the app's fixed one (0: not fixed yet).
int64_t wanted_dimension(Db& db, std::string_view app, int64_t configured) {
    return configured > 0 ? configured : app_dimension(db, app);
}

// Refuses a vector (if any) of another dimension than the app's; the first one fixes it.
void check_vector(Db& db, const std::string& where, mnemo_vector vector, std::string_view app, int64_t configured) {
    if (!vector.values) return;
    const auto dims = static_cast<int64_t>(vector.dims);
    if (dims == 0) invalid(where + ".embedding is empty; give the vector's numbers");
    const int64_t dimension = wanted_dimension(db, app, configured);
    if (dimension == 0 || dims == dimension) return;
    invalid(host::dimension_mismatch(where, dims, app, dimension));
}

void check_text(const std::string& where, const mnemo_memory_input& in) {
    if (!in.text.ptr) return;
    if (in.text.len == 0) invalid(where + ".text is empty; give 1 byte or more");
    if (!in.folded_text.ptr) invalid(where + ".folded_text is missing; the host folds every text it writes");
}

// Given fields replace stored ones; a changed text drops the vector unless one is given.
void update(Db& db, FeedClock& clock, MemoryRow& row, const mnemo_memory_input& in, bool embedder, int64_t now_us) {
    const bool text_changed = in.text.ptr && view(in.text) != row.text;
    if (text_changed) {
        row.set_text(view(in.text), view(in.folded_text));
        host::text_replaced(row, embedder);
    }
    host::apply_write(row, in, now_us);
    update_memory(db, clock, row, text_changed);
    fix_dimension(db, row.app, row.vector.size());
}

MemoryRow create(Db& db, FeedClock& clock, const mnemo_memory_write_req& req, const mnemo_memory_input& in) {
    MemoryRow row;
    row.app = text(req.app);
    row.user = text(req.user);
    row.id = text(in.id);
    row.set_text(view(in.text), view(in.folded_text));
    row.embedding = req.embedder ? MNEMO_EMBEDDING_PENDING : MNEMO_EMBEDDING_NONE;  // unless a vector is given
    host::apply_write(row, in, req.now_us);
    row.created_at_us = req.now_us;
    insert_memory(db, clock, row);
    fix_dimension(db, row.app, row.vector.size());
    return row;
}

// An expired row of the id is removed first, so the id is created afresh.
std::optional<MemoryRow> live_after_dropping_expired(Db& db, FeedClock& clock, const mnemo_memory_write_req& req,
                                                     mnemo_str id) {
    std::optional<MemoryRow> stored = stored_memory(db, req.app, req.user, id);
    if (stored && !stored->live(req.now_us)) {
        remove_memory(db, clock, *stored, stored->expires_at_us);
        stored.reset();
    }
    return stored;
}

void write_item(Db& db, FeedClock& clock, const mnemo_memory_write_req& req, size_t index, Output& out) {
    const mnemo_memory_input& in = req.items[index];
    const std::string where = item_name(index);
    check_text(where, in);
    check_vector(db, where, in.vector, view(req.app), req.dimensions);
    std::optional<MemoryRow> stored = live_after_dropping_expired(db, clock, req, in.id);
    if (!in.id_from_client && stored)
        invalid(where + ".id " + text(in.id) + " was generated but already names a memory of user " + text(req.user));
    if (!in.text.ptr && !stored)
        invalid(where + ".text is required: user " + text(req.user) + " has no memory " + text(in.id) + " to update");
    MemoryVia via{MemoryVia::Written, index, 0, 0};
    if (stored) {
        if (!host::is_write_retry(*stored, in)) update(db, clock, *stored, in, req.embedder != 0, req.now_us);
        return emit_memory(out, *stored, false, via);
    }
    if (!in.id_from_client) {
        std::optional<MemoryRow> same =
            live_memory_by_text(db, req.app, req.user, view(in.name_space), view(in.folded_text), req.now_us);
        if (same) {
            same->updated_at_us = req.now_us;
            same->expires_at_us = expiry_after(req.now_us, in.ttl_us);
            update_memory(db, clock, *same, false);
            return emit_memory(out, *same, false, via);
        }
    }
    via.created = 1;
    emit_memory(out, create(db, clock, req, in), false, via);
}

}  // namespace

void memory_write(Db& db, const mnemo_memory_write_req& req, Output& out) {
    if (req.n_items == 0) invalid("memories is empty; give at least one memory");
    FeedClock clock(db);
    for (size_t i = 0; i < req.n_items; ++i) write_item(db, clock, req, i, out);
    clock.save();
}

void memory_patch(Db& db, const mnemo_memory_patch_req& req, Output& out) {
    FeedClock clock(db);
    const mnemo_memory_ref& ref = req.ref;
    std::optional<MemoryRow> row = live_memory(db, ref.app, ref.user, ref.id, ref.now_us);
    if (!row) throw_memory_not_found(ref);
    check_text("patch", req.fields);
    check_vector(db, "patch", req.fields.vector, view(ref.app), req.dimensions);
    update(db, clock, *row, req.fields, req.embedder != 0, ref.now_us);
    emit_memory(out, *row, false);
    clock.save();
}

void memory_delete(Db& db, const mnemo_memory_delete_req& req) {
    FeedClock clock(db);
    const mnemo_memory_ref& ref = req.ref;
    std::optional<MemoryRow> row = live_memory(db, ref.app, ref.user, ref.id, ref.now_us);
    if (!row) throw_memory_not_found(ref);
    remove_memory(db, clock, *row, ref.now_us);
    clock.save();
}

void memory_embed(Db& db, const mnemo_memory_embed_req& req, Output& out) {
    FeedClock clock(db);
    int64_t stored = 0;
    for (size_t i = 0; i < req.n_items; ++i) {
        const mnemo_embedding_update& item = req.items[i];
        std::optional<MemoryRow> row = memory_by_key(db, item.key);
        // Only a pending memory takes an embedder's answer: a vector the client
        // gave meanwhile (same text, so the same text_version) stays.
        if (!row || !row->live(req.now_us) || row->text_version != item.text_version ||
            row->embedding != MNEMO_EMBEDDING_PENDING) {
            continue;
        }
        const int64_t dimension = wanted_dimension(db, row->app, req.dimensions);
        const bool ready = item.status == MNEMO_EMBEDDING_READY && item.vector.values && item.vector.dims > 0 &&
                           (dimension == 0 || static_cast<int64_t>(item.vector.dims) == dimension);
        if (ready)
            host::store_vector(*row, item.vector, item.model);
        else
            row->embedding = MNEMO_EMBEDDING_FAILED;
        update_memory(db, clock, *row, false);
        fix_dimension(db, row->app, row->vector.size());
        ++stored;
    }
    out.result(MemoryEmbedded{stored});
    clock.save();
}

void memory_reembed(Db& db, const mnemo_memory_reembed_req& req, Output& out) {
    FeedClock clock(db);
    if (req.dimensions > 0) set_dimension(db, view(req.app), req.dimensions);
    std::vector<int64_t> keys;
    {
        Query live(db, with_lock(db,
                                 "SELECT row_key FROM memories WHERE app = ? AND (expires_at = 0 OR expires_at > +?) "
                                 "ORDER BY row_key"));
        live.args(req.app, req.now_us);
        while (live.step()) keys.push_back(live.i64(0));
    }
    for (int64_t key : keys)
        Query(db, "UPDATE memories SET embedding = ?, change_seq = ? WHERE row_key = ?")
            .args(int{MNEMO_EMBEDDING_PENDING}, clock.next(), key)
            .run();
    mnemo_memory_count_result marked{};
    marked.total = marked.pending = static_cast<int64_t>(keys.size());
    out.result(marked);
    clock.save();
}

}  // namespace mnemo::sqlcore
