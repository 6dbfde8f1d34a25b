// capture_batch.h -- the captures of one append or rewrite as a backend
// receives them (mnemo_plugin.h "capture from conversations"), with the
// session they come from, and the rules they must pass: the one shape and
// the one check both the memory backend (plugins/memory/captures.h) and the
// SQL core (plugins/sql/capture_rows.h) use. Header-only, like
// host_services.h.
#pragma once

#include "host_services.h"
#include "memory_values.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace mnemo::host {

struct CaptureBatch {
    const mnemo_key* key = nullptr;  // the session; its user owns the memories
    const mnemo_capture* items = nullptr;
    size_t n_items = 0;
    size_t n_events = 0;  // the request's events, which event_index points into
    const mnemo_capture_settings* settings = nullptr;
    int64_t now_us = 0;
};

// The refusal (MNEMO_E_INVALID) of the first capture whose event_index is
// past the events, whose text or memory_id is empty, or whose memory_id an
// earlier capture of the batch holds or taken(memory_id) says a live memory
// of the user holds; nullopt when every capture passes.
template <typename Taken>
std::optional<std::string> capture_refusal(const CaptureBatch& batch, Taken&& taken) {
    std::unordered_set<std::string_view> ids;
    for (size_t i = 0; i < batch.n_items; ++i) {
        const mnemo_capture& capture = batch.items[i];
        auto refusal = [&](const std::string& what) { return "captures[" + std::to_string(i) + "]." + what; };
        if (capture.event_index >= batch.n_events)
            return refusal("event_index " + std::to_string(capture.event_index) + " is past the " +
                           std::to_string(batch.n_events) + " events of the request");
        if (!capture.text.ptr || capture.text.len == 0)
            return refusal("text is empty; an event without text is not captured");
        if (!capture.memory_id.ptr || capture.memory_id.len == 0)
            return refusal("memory_id is empty; the host generates one");
        const std::string_view id(capture.memory_id.ptr, capture.memory_id.len);
        if (!ids.insert(id).second || taken(id))
            return refusal("memory_id " + std::string(id) + " already names a memory of user " +
                           detail::copy(batch.key->user));
    }
    return std::nullopt;
}

// The values of the memory a capture makes, of the session's user, from the
// event that got the seq first_seq + event_index; its text is the backend's
// to set (a captured memory takes no part in dedupe).
inline void capture_values(MemoryValues& row, const CaptureBatch& batch, const mnemo_capture& capture,
                           int64_t first_seq) {
    const mnemo_capture_settings& settings = *batch.settings;
    row.app = detail::copy(batch.key->app);
    row.user = detail::copy(batch.key->user);
    row.id = detail::copy(capture.memory_id);
    row.name_space = detail::copy(settings.name_space);
    row.session_id = row.source_session = optional_copy(batch.key->session_id);
    row.source_seq = first_seq + static_cast<int64_t>(capture.event_index);
    row.embedding = settings.embedder ? MNEMO_EMBEDDING_PENDING : MNEMO_EMBEDDING_NONE;
    row.created_at_us = row.updated_at_us = batch.now_us;
    row.expires_at_us = settings.ttl_us > 0 ? batch.now_us + settings.ttl_us : 0;
}

}  // namespace mnemo::host
