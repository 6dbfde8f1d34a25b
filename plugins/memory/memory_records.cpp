#include "memory_records.h"

#include "errors.h"
#include "memory_record_check.h"

#include <algorithm>

namespace mnemo::memory {

namespace {

bool same_vector(const std::vector<float>& stored, mnemo_vector given) {
    if (!given.values) return stored.empty();
    return stored.size() == given.dims && std::equal(stored.begin(), stored.end(), given.values);
}

mnemo_str metadata_of(const mnemo_memory& m) {
    return m.metadata_json.ptr ? m.metadata_json : mnemo_str{"{}", 2};
}

// Every field the record carries equals the stored one.
bool unchanged(const MemoryRec& row, const mnemo_memory& m) {
    return row.text == view(m.text) && row.name_space == view(m.name_space) &&
           row.metadata_json == view(metadata_of(m)) && same(row.session_id, m.session_id) &&
           same(row.source_session, m.source_session) && row.source_seq == m.source_seq &&
           row.embedding == m.embedding && same(row.embedding_model, m.embedding_model) &&
           same_vector(row.vector, m.vector) && row.created_at_us == m.created_at_us &&
           row.updated_at_us == m.updated_at_us && row.expires_at_us == m.expires_at_us;
}

// Every field but the identity and the text, which goes through the word indexes.
void fill(MemoryRec& row, const mnemo_memory& m) {
    row.name_space = copy(m.name_space);
    row.metadata_json = copy(metadata_of(m));
    row.session_id = copy_opt(m.session_id);
    row.source_session = copy_opt(m.source_session);
    row.source_seq = m.source_seq;
    row.embedding = m.embedding;
    row.embedding_model = copy_opt(m.embedding_model);
    if (m.vector.values)
        row.vector.assign(m.vector.values, m.vector.values + m.vector.dims);
    else
        row.vector.clear();
    row.created_at_us = m.created_at_us;
    row.updated_at_us = m.updated_at_us;
    row.expires_at_us = m.expires_at_us;
}

void create(MemoryStore& memories, const mnemo_record& r) {
    const mnemo_memory& m = *r.memory;
    auto row = std::make_unique<MemoryRec>();
    row->app = copy(m.app);
    row->user = copy(m.user);
    row->id = copy(m.id);
    fill(*row, m);
    row->set_text(view(m.text), view(r.folded_text));
    memories.fix_dimension(memories.insert(std::move(row)));
}

}  // namespace

void export_memories(MemoryStore& memories, const mnemo_export_req& req, const mnemo_record_sink* sink) {
    const AppMemories* app = memories.find_app(view(req.app));
    if (!app) return;
    int64_t sent = 0;
    for (auto it = app->by_key.upper_bound(req.cursor_key); it != app->by_key.end(); ++it) {
        const MemoryRec& row = *it->second;
        if (!row.live(req.now_us)) continue;
        if (req.limit > 0 && sent == req.limit) {
            if (sink->more) sink->more(sink->ctx);
            return;
        }
        const mnemo_memory memory = memory_view(row, true);
        mnemo_record record{};
        record.kind = MNEMO_RECORD_MEMORY;
        record.key = mnemo_key{memory.app, memory.user, mnemo_str{nullptr, 0}};
        record.memory = &memory;
        if (sink->record) sink->record(sink->ctx, &record);
        ++sent;
    }
}

int check_memory_records(MemoryStore& memories, const mnemo_import_req& req, mnemo_error* err) {
    const std::optional<std::string> refusal = host::memory_records_refusal(
        req, [&](std::string_view app) { return memories.wanted_dimension(app, req.memory_dimensions); });
    return refusal ? fail(err, MNEMO_E_INVALID, "%s", refusal->c_str()) : MNEMO_OK;
}

void import_memory(MemoryStore& memories, const mnemo_record& r, int64_t now_us) {
    const mnemo_memory& m = *r.memory;
    const std::string_view app = view(m.app), user = view(m.user), id = view(m.id);
    memories.drop_expired(app, user, id, now_us);
    MemoryRec* row = memories.live_by_id(app, user, id, now_us);
    if (!live_at(m.expires_at_us, now_us)) {
        // Expired since the export: what it replaces is gone as well.
        if (row) memories.remove(*row, now_us);
        return;
    }
    if (!row) return create(memories, r);
    if (unchanged(*row, m)) return;
    memories.modify(*row, [&](MemoryRec& stored) {
        if (stored.text != view(m.text)) {
            memories.replace_text(stored, view(m.text), view(r.folded_text));
            ++stored.text_version;
        }
        fill(stored, m);
    });
    memories.fix_dimension(*row);
}

}  // namespace mnemo::memory
