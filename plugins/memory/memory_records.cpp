#include "memory_records.h"

#include "errors.h"
#include "export_records.h"
#include "memory_record_check.h"

namespace mnemo::memory {

namespace {

void create(MemoryStore& memories, const mnemo_record& r) {
    const mnemo_memory& m = *r.memory;
    auto row = std::make_unique<MemoryRec>();
    row->app = copy(m.app);
    row->user = copy(m.user);
    row->id = copy(m.id);
    host::assign_imported(*row, m);
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
        host::send_memory_record(*sink, row);
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
    if (host::unchanged_by_import(*row, m)) return;
    memories.modify(*row, [&](MemoryRec& stored) {
        if (stored.text != view(m.text)) {
            memories.replace_text(stored, view(m.text), view(r.folded_text));
            ++stored.text_version;
        }
        host::assign_imported(stored, m);
    });
    memories.fix_dimension(*row);
}

}  // namespace mnemo::memory
