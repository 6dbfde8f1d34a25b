/*
 * core/capture.h -- which events become long-term memories (docs/memories.md
 * "Capture from conversations", memory.capture: events).
 *
 * Owns the host's half of capture: the role filter (memory.capture_roles),
 * the capture text (content.text, or the content when it is a JSON string),
 * a UUIDv7 id per captured memory, and the mnemo_capture requests that hand
 * them, with the app's namespace, TTL and embedder, to the backend, which
 * stores them in the same transaction as their events. Only for a backend
 * with memory ops: the others get no captures.
 */
#pragma once

#include "config/config.h"
#include "core/event_input.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::core {

// The events of one append or rewrite that become memories.
class CapturePlan {
public:
    // Points the request's capture fields at this plan; valid while the plan lives unchanged.
    void attach(mnemo_append_req& req) { attach_to(req.captures, req.n_captures, req.capture); }
    void attach(mnemo_rewrite_req& req) { attach_to(req.captures, req.n_captures, req.capture); }

    size_t size() const { return texts_.size(); }

private:
    friend CapturePlan plan_captures(const config::MemoryConfig& memory, bool backend_keeps_memories,
                                     const std::vector<EventInput*>& events, int64_t now_us);
    void attach_to(const mnemo_capture*& items, size_t& n_items, mnemo_capture_settings& settings);

    std::vector<size_t> event_indexes_;
    std::vector<std::string> ids_, texts_;
    std::string name_space_;
    std::vector<mnemo_capture> items_;  // views of the above, made by attach
    mnemo_capture_settings settings_{};
};

// The text of an event's content (raw JSON): content.text when the content
// is an object with a string "text", the content itself when it is a JSON
// string; nullopt otherwise.
std::optional<std::string> content_text(std::string_view content_json);

// The captures of `events` (the stored events of a request, in order) under
// the app's memory settings: each event whose role is in capture_roles and
// whose content text holds more than white space, the text cut to
// max_text_bytes at a character boundary. Empty unless capture is events and
// the backend keeps memories.
CapturePlan plan_captures(const config::MemoryConfig& memory, bool backend_keeps_memories,
                          const std::vector<EventInput*>& events, int64_t now_us);

}  // namespace mnemo::core
