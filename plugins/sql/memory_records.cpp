#include "memory_records.h"

#include "memory_record_check.h"

#include <algorithm>

namespace mnemo::sqlcore {
namespace {

std::optional<std::string> optional_copy(mnemo_str value) {
    return value.ptr ? std::optional<std::string>(text(value)) : std::nullopt;
}

std::string metadata_of(const mnemo_memory& m) {
    return m.metadata_json.ptr ? text(m.metadata_json) : std::string("{}");
}

std::vector<float> vector_of(const mnemo_memory& m) {
    if (!m.vector.values) return {};
    return std::vector<float>(m.vector.values, m.vector.values + m.vector.dims);
}

// Every field but the identity, the text and the store's own counters.
void fill(MemoryRow& row, const mnemo_memory& m) {
    row.name_space = text(m.name_space);
    row.metadata = metadata_of(m);
    row.session_id = optional_copy(m.session_id);
    row.source_session = optional_copy(m.source_session);
    row.source_seq = m.source_seq;
    row.embedding = m.embedding;
    row.model = optional_copy(m.embedding_model);
    row.vector = vector_of(m);
    row.created_at_us = m.created_at_us;
    row.updated_at_us = m.updated_at_us;
    row.expires_at_us = m.expires_at_us;
}

// Every field the record carries equals the stored one.
bool unchanged(const MemoryRow& row, const mnemo_memory& m) {
    MemoryRow given = row;
    fill(given, m);
    return row.text == view(m.text) && row.name_space == given.name_space && row.metadata == given.metadata &&
           row.session_id == given.session_id && row.source_session == given.source_session &&
           row.source_seq == given.source_seq && row.embedding == given.embedding && row.model == given.model &&
           row.vector == given.vector && row.created_at_us == given.created_at_us &&
           row.updated_at_us == given.updated_at_us && row.expires_at_us == given.expires_at_us;
}

void create(Db& db, FeedClock& clock, const mnemo_record& r) {
    const mnemo_memory& m = *r.memory;
    MemoryRow row;
    row.app = text(m.app);
    row.user = text(m.user);
    row.id = text(m.id);
    fill(row, m);
    row.set_text(view(m.text), view(r.folded_text));
    insert_memory(db, clock, row);
    fix_dimension(db, row.app, row.vector.size());
}

}  // namespace

void export_memories(Db& db, const mnemo_export_req& req, const mnemo_record_sink& sink) {
    Query rows(db, kMemoryExportSql);
    rows.args(req.app, req.cursor_key, req.now_us, req.limit > 0 ? req.limit + 1 : int64_t{1} << 62);
    int64_t sent = 0;
    while (rows.step()) {
        if (req.limit > 0 && sent == req.limit) {
            if (sink.more) sink.more(sink.ctx);
            return;
        }
        const MemoryRow row = memory_row(rows);
        const mnemo_memory memory = memory_view(row, true);
        mnemo_record record{};
        record.kind = MNEMO_RECORD_MEMORY;
        record.key = mnemo_key{memory.app, memory.user, mnemo_str{nullptr, 0}};
        record.memory = &memory;
        if (sink.record) sink.record(sink.ctx, &record);
        ++sent;
    }
}

void check_memory_records(Db& db, const mnemo_import_req& req) {
    const std::optional<std::string> refusal = host::memory_records_refusal(req, [&](std::string_view app) {
        return req.memory_dimensions > 0 ? req.memory_dimensions : app_dimension(db, app);
    });
    if (refusal) throw StoreError(MNEMO_E_INVALID, *refusal);
}

void import_memory(Db& db, FeedClock& clock, const mnemo_record& r, int64_t now_us) {
    const mnemo_memory& m = *r.memory;
    std::optional<MemoryRow> stored = stored_memory(db, m.app, m.user, m.id);
    if (stored && !stored->live(now_us)) {
        remove_memory(db, clock, *stored, stored->expires_at_us);
        stored.reset();
    }
    if (!live_at(m.expires_at_us, now_us)) {
        // Expired since the export: what it replaces is gone as well.
        if (stored) remove_memory(db, clock, *stored, now_us);
        return;
    }
    if (!stored) return create(db, clock, r);
    if (unchanged(*stored, m)) return;
    const bool text_changed = stored->text != view(m.text);
    if (text_changed) {
        stored->set_text(view(m.text), view(r.folded_text));
        ++stored->text_version;
    }
    fill(*stored, m);
    update_memory(db, clock, *stored, text_changed);
    fix_dimension(db, stored->app, stored->vector.size());
}

}  // namespace mnemo::sqlcore
