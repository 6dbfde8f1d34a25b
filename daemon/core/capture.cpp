#include "core/capture.h"

#include "core/ids.h"
#include "core/json_input.h"
#include "storage/rows.h"

#include <algorithm>

namespace mnemo::core {
namespace {

bool captured_role(const config::MemoryConfig& memory, std::string_view role) {
    return std::find(memory.capture_roles.begin(), memory.capture_roles.end(), role) != memory.capture_roles.end();
}

bool blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

// At most max_bytes (0: no limit), never ending inside a UTF-8 sequence.
void cut_to(std::string& text, uint64_t max_bytes) {
    if (max_bytes == 0 || text.size() <= max_bytes) return;
    size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text.resize(end);
}

}  // namespace

std::optional<std::string> content_text(std::string_view content_json) {
    simdjson::padded_string copy(content_json);
    od::parser parser;
    od::document doc;
    if (parser.iterate(copy).get(doc)) return std::nullopt;
    std::string_view text;
    od::json_type type;
    if (doc.type().get(type)) return std::nullopt;
    if (type == od::json_type::string) {
        if (doc.get_string().get(text) == simdjson::SUCCESS) return std::string(text);
        return std::nullopt;
    }
    if (type != od::json_type::object) return std::nullopt;
    if (doc["text"].get_string().get(text) == simdjson::SUCCESS) return std::string(text);
    return std::nullopt;
}

CapturePlan plan_captures(const config::MemoryConfig& memory, bool backend_keeps_memories,
                          const std::vector<EventInput*>& events, int64_t now_us) {
    CapturePlan plan;
    if (memory.capture != config::MemoryConfig::Capture::Events || !backend_keeps_memories) return plan;
    for (size_t i = 0; i < events.size(); ++i) {
        const EventInput& event = *events[i];
        if (!event.content_json || !captured_role(memory, event.role)) continue;
        std::optional<std::string> text = content_text(*event.content_json);
        if (!text || blank(*text)) continue;
        cut_to(*text, memory.max_text_bytes);
        plan.event_indexes_.push_back(i);
        plan.ids_.push_back(uuid_v7(now_us));
        plan.texts_.push_back(std::move(*text));
    }
    plan.name_space_ = memory.capture_namespace;
    plan.settings_.ttl_us = memory.ttl_us;
    plan.settings_.embedder = memory.embedder.kind != config::EmbedderConfig::Kind::None ? 1 : 0;
    return plan;
}

void CapturePlan::attach_to(const mnemo_capture*& items, size_t& n_items, mnemo_capture_settings& settings) {
    items_.clear();
    for (size_t i = 0; i < texts_.size(); ++i)
        items_.push_back(mnemo_capture{event_indexes_[i], storage::str(ids_[i]), storage::str(texts_[i])});
    settings_.name_space = storage::str(name_space_);
    items = items_.data();
    n_items = items_.size();
    settings = settings_;
}

}  // namespace mnemo::core
