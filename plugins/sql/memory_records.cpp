#include "memory_records.h"

#include "export_records.h"
#include "memory_record_check.h"

namespace mnemo::sqlcore {
namespace {

void create(Db& db, FeedClock& clock, const mnemo_record& r) {
    const mnemo_memory& m = *r.memory;
    MemoryRow row;
    row.app = text(m.app);
    row.user = text(m.user);
    row.id = text(m.id);
    host::assign_imported(row, m);
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
        host::send_memory_record(sink, memory_row(rows));
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
    if (host::unchanged_by_import(*stored, m)) return;
    const bool text_changed = stored->text != view(m.text);
    if (text_changed) {
        stored->set_text(view(m.text), view(r.folded_text));
        ++stored->text_version;
    }
    host::assign_imported(*stored, m);
    update_memory(db, clock, *stored, text_changed);
    fix_dimension(db, stored->app, stored->vector.size());
}

}  // namespace mnemo::sqlcore
