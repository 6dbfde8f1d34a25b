#include "capture_rows.h"

namespace mnemo::sqlcore {

void check_captures(Db& db, const CaptureBatch& batch) {
    const std::optional<std::string> refusal = host::capture_refusal(batch, [&](std::string_view id) {
        return live_memory(db, batch.key->app, batch.key->user, str(id), batch.now_us).has_value();
    });
    if (refusal) throw StoreError(MNEMO_E_INVALID, *refusal);
}

void store_captures(Db& db, FeedClock& clock, const CaptureBatch& batch, int64_t first_seq) {
    const mnemo_key& key = *batch.key;
    for (size_t i = 0; i < batch.n_items; ++i) {
        const mnemo_capture& capture = batch.items[i];
        // An expired row of the id is removed first, so the id is created afresh.
        if (std::optional<MemoryRow> expired = stored_memory(db, key.app, key.user, capture.memory_id))
            remove_memory(db, clock, *expired, expired->expires_at_us);
        MemoryRow row;
        host::capture_values(row, batch, capture, first_seq);
        row.set_text(view(capture.text), {});
        row.folded_text.reset();  // out of dedupe: its life follows its event's
        insert_memory(db, clock, row);
    }
}

bool any_captured(Db& db, const mnemo_key& key, int64_t from_seq, int64_t session_created_us) {
    Query query(db, kMemoryCapturedSql + " LIMIT 1");
    query.args(key.app, key.user, key.session_id, from_seq, session_created_us);
    return query.step();
}

int64_t remove_captured(Db& db, FeedClock& clock, const mnemo_key& key, int64_t from_seq, int64_t session_created_us,
                        int64_t now_us) {
    std::vector<MemoryRow> rows;
    {
        Query query(db, with_lock(db, kMemoryCapturedSql));
        query.args(key.app, key.user, key.session_id, from_seq, session_created_us);
        while (query.step()) rows.push_back(memory_row(query));
    }
    for (const MemoryRow& row : rows) remove_memory(db, clock, row, now_us);
    return static_cast<int64_t>(rows.size());
}

}  // namespace mnemo::sqlcore
