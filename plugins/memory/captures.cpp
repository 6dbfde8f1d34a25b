#include "captures.h"

#include "errors.h"

#include <string>
#include <unordered_set>

namespace mnemo::memory {

int check_captures(MemoryStore& memories, const CaptureBatch& batch, mnemo_error* err) {
    const mnemo_key& key = *batch.key;
    std::unordered_set<std::string_view> ids;
    for (size_t i = 0; i < batch.n_items; ++i) {
        const mnemo_capture& capture = batch.items[i];
        if (capture.event_index >= batch.n_events)
            return fail(err, MNEMO_E_INVALID, "captures[%zu].event_index %zu is past the %zu events of the request", i,
                        capture.event_index, batch.n_events);
        if (!capture.text.ptr || capture.text.len == 0)
            return fail(err, MNEMO_E_INVALID, "captures[%zu].text is empty; an event without text is not captured", i);
        if (!capture.memory_id.ptr || capture.memory_id.len == 0)
            return fail(err, MNEMO_E_INVALID, "captures[%zu].memory_id is empty; the host generates one", i);
        const std::string_view id = view(capture.memory_id);
        if (!ids.insert(id).second || memories.live_by_id(view(key.app), view(key.user), id, batch.now_us) != nullptr)
            return fail(err, MNEMO_E_INVALID, "captures[%zu].memory_id %.*s already names a memory of user %.*s", i,
                        MNEMO_STR_ARG(capture.memory_id), MNEMO_STR_ARG(key.user));
    }
    return MNEMO_OK;
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
