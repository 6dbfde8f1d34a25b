#include "memory/memory_render.h"

#include "core/render.h"

#include <fmt/format.h>

namespace mnemo::memory {
namespace {

using core::JsonWriter;

void optional_string(JsonWriter& w, std::string_view name, const storage::OptString& value) {
    w.key(name);
    if (value) {
        w.string(*value);
    } else {
        w.null();
    }
}

void optional_integer(JsonWriter& w, std::string_view name, const std::optional<int64_t>& value) {
    w.key(name);
    if (value) {
        w.integer(*value);
    } else {
        w.null();
    }
}

// The Memory object's members, without its braces (recall adds its own).
void write_members(JsonWriter& w, const storage::MemoryRow& m, bool with_vector) {
    w.field("id", m.id).field("app", m.app).field("user", m.user).field("namespace", m.name_space);
    w.field("text", m.text).raw_field("metadata", m.metadata_json);
    optional_string(w, "session_id", m.session_id);
    w.key("source");
    if (m.source_session) {
        w.begin_object().field("session", *m.source_session).field("seq", m.source_seq).end_object();
    } else {
        w.null();
    }
    w.field("embedding", embedding_status_name(m.embedding));
    optional_string(w, "embedding_model", m.embedding_model);
    w.key("created_at");
    core::write_timestamp(w, m.created_at_us);
    w.key("updated_at");
    core::write_timestamp(w, m.updated_at_us);
    w.key("expires_at");
    core::write_timestamp(w, m.expires_at_us);
    if (!with_vector) return;
    w.key("vector");
    if (m.vector.empty()) {
        w.null();
        return;
    }
    w.begin_array();
    // A float's shortest form (0.1, not 0.10000000149011612): what the client sent.
    for (float value : m.vector) w.raw(fmt::format("{}", value));
    w.end_array();
}

}  // namespace

std::string_view embedding_status_name(int status) {
    switch (status) {
        case MNEMO_EMBEDDING_PENDING:
            return "pending";
        case MNEMO_EMBEDDING_READY:
            return "ready";
        case MNEMO_EMBEDDING_FAILED:
            return "failed";
        default:
            return "none";
    }
}

void write_memory(JsonWriter& w, const storage::MemoryRow& memory, bool with_vector) {
    w.begin_object();
    write_members(w, memory, with_vector);
    w.end_object();
}

std::string render_memory(const storage::MemoryRow& memory, bool with_vector) {
    std::string body;
    JsonWriter w(body);
    write_memory(w, memory, with_vector);
    return body;
}

std::string render_written_memory(const storage::MemoryWritten& written) {
    std::string body;
    JsonWriter w(body);
    w.begin_object();
    write_members(w, written.memory, false);
    w.field("created", written.created).end_object();
    return body;
}

std::string render_written(const std::vector<storage::MemoryWritten>& written) {
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("memories").begin_array();
    for (const auto& item : written) {
        w.begin_object().field("id", item.memory.id).field("created", item.created);
        w.field("embedding", embedding_status_name(item.memory.embedding)).end_object();
    }
    w.end_array().end_object();
    return body;
}

std::string render_page(const std::vector<storage::MemoryRow>& memories,
                        const std::optional<std::string>& next_page_token) {
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("memories").begin_array();
    for (const auto& memory : memories) write_memory(w, memory, false);
    w.end_array();
    optional_string(w, "next_page_token", next_page_token);
    w.end_object();
    return body;
}

std::string render_recall(std::string_view mode, const std::vector<RecallRow>& rows,
                          const std::optional<ReembedNote>& note) {
    std::string body;
    JsonWriter w(body);
    w.begin_object().field("mode", mode).key("memories").begin_array();
    for (const RecallRow& row : rows) {
        w.begin_object();
        write_members(w, *row.memory, false);
        w.key("score").number(row.hit->score).key("similarity");
        if (row.hit->similarity) {
            w.number(*row.hit->similarity);
        } else {
            w.null();
        }
        optional_integer(w, "keyword_rank", row.hit->keyword_rank);
        optional_integer(w, "vector_rank", row.hit->vector_rank);
        w.end_object();
    }
    w.end_array();
    if (note) {
        w.key("reembedding").begin_object();
        w.field("from", static_cast<int64_t>(note->from)).field("to", static_cast<int64_t>(note->to));
        w.field("remaining", static_cast<int64_t>(note->remaining));
        w.field("searched", static_cast<int64_t>(note->searched)).field("complete", note->searched == note->from);
        w.end_object();
    }
    w.end_object();
    return body;
}

}  // namespace mnemo::memory
