#include "captures.h"

#include "errors.h"

namespace mnemo::memory {

int check_captures(MemoryStore& memories, const CaptureBatch& batch, mnemo_error* err) {
    const std::optional<std::string> refusal = host::capture_refusal(batch, [&](std::string_view id) {
        return memories.live_by_id(view(batch.key->app), view(batch.key->user), id, batch.now_us) != nullptr;
    });
    return refusal ? fail(err, MNEMO_E_INVALID, "%s", refusal->c_str()) : MNEMO_OK;
}

void store_captures(MemoryStore& memories, const CaptureBatch& batch, int64_t first_seq) {
    const mnemo_key& key = *batch.key;
    const mnemo_capture_settings& settings = *batch.settings;
    for (size_t i = 0; i < batch.n_items; ++i) {
        const mnemo_capture& capture = batch.items[i];
        memories.drop_expired(view(key.app), view(key.user), view(capture.memory_id), batch.now_us);
        auto row = std::make_unique<MemoryRec>();
        row->app = copy(key.app);
        row->user = copy(key.user);
        row->id = copy(capture.memory_id);
        row->name_space = copy(settings.name_space);
        row->session_id = copy_opt(key.session_id);
        row->source_session = copy_opt(key.session_id);
        row->source_seq = first_seq + static_cast<int64_t>(capture.event_index);
        // No folded text: a captured row is out of the dedupe index (memories.h).
        row->set_text(view(capture.text), {});
        row->embedding = settings.embedder ? MNEMO_EMBEDDING_PENDING : MNEMO_EMBEDDING_NONE;
        row->created_at_us = row->updated_at_us = batch.now_us;
        row->expires_at_us = expiry_after(batch.now_us, settings.ttl_us);
        memories.insert(std::move(row));
    }
}

}  // namespace mnemo::memory
