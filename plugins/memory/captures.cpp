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
    for (size_t i = 0; i < batch.n_items; ++i) {
        const mnemo_capture& capture = batch.items[i];
        memories.drop_expired(view(key.app), view(key.user), view(capture.memory_id), batch.now_us);
        auto row = std::make_unique<MemoryRec>();
        host::capture_values(*row, batch, capture, first_seq);
        // No folded text: a captured row is out of the dedupe index (memories.h).
        row->set_text(view(capture.text), {});
        memories.insert(std::move(row));
    }
}

}  // namespace mnemo::memory
