// The memory operations that read: memory_get, memory_list, memory_keys,
// memory_candidates, memory_changes, memory_pending and memory_count, each
// in one read snapshot. Expired memories are absent to all of them but the
// feed, which lists a stored row as stored until the sweep removes it.
#include "memory_filter.h"
#include "memory_rows.h"
#include "sql_ops.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace mnemo::sqlcore {
namespace {

// A removal of the feed: key, app, user and when.
struct Removal {
    int64_t change_seq = 0, key = 0, removed_at_us = 0;
    std::string app, user;
};

void emit_removal(Output& out, const Removal& removal) {
    mnemo_memory view{};
    view.key = removal.key;
    view.app = str(removal.app);
    view.user = str(removal.user);
    view.change_seq = removal.change_seq;
    view.removed_at_us = removal.removed_at_us;
    out.memory(view, MemoryVia{});
}

// The stored rows and the removals after the cursor, at most limit + 1 of each, in change_seq order.
std::vector<MemoryRow> changed_rows(Db& db, int64_t after_seq, int64_t limit) {
    std::vector<MemoryRow> rows;
    Query query(db, kMemoryChangesSql);
    query.args(after_seq, limit + 1);
    while (query.step()) rows.push_back(memory_row(query));
    return rows;
}

std::vector<Removal> removals_after(Db& db, int64_t after_seq, int64_t limit) {
    std::vector<Removal> removals;
    Query query(db, kMemoryRemovalsAfterSql);
    query.args(after_seq, limit + 1);
    while (query.step())
        removals.push_back(Removal{query.i64(0), query.i64(1), query.i64(4), query.text(2), query.text(3)});
    return removals;
}

void count_status(mnemo_memory_count_result& count, int embedding, int64_t n) {
    count.total += n;
    if (embedding == MNEMO_EMBEDDING_PENDING)
        count.pending += n;
    else if (embedding == MNEMO_EMBEDDING_READY)
        count.ready += n;
    else if (embedding == MNEMO_EMBEDDING_FAILED)
        count.failed += n;
    else
        count.none += n;
}

}  // namespace

void memory_get(Db& db, const mnemo_memory_get_req& req, Output& out) {
    const mnemo_memory_ref& ref = req.ref;
    std::optional<MemoryRow> row = live_memory(db, ref.app, ref.user, ref.id, ref.now_us);
    if (!row) throw_memory_not_found(ref);
    emit_memory(out, *row, req.with_vector != 0);
}

void memory_list(Db& db, const mnemo_memory_list_req& req, Output& out) {
    require_memory_limit("memory list", req.limit);
    const bool first_page = req.cursor_updated_at_us <= 0;
    Query query(db, first_page ? kMemoryListFirstSql : kMemoryListAfterSql);
    query.args(req.app, req.user, req.now_us, req.name_space, req.name_space, req.session_id, req.session_id,
               req.statuses);
    int next = 9;
    for (int status = MNEMO_EMBEDDING_NONE; status <= MNEMO_EMBEDDING_FAILED; ++status)
        query.bind(next++, (req.statuses & (1u << status)) != 0 ? status : -1);
    if (!first_page) {
        query.bind(next++, req.cursor_updated_at_us);
        query.bind(next++, req.cursor_updated_at_us);
        query.bind(next++, req.cursor_id.ptr ? req.cursor_id : str(""));
    }
    // Metadata compares by JSON value (passes_list_filters): its rows are
    // read until a page passes, so the statement's LIMIT cannot count them.
    query.bind(next, req.n_metadata > 0 ? INT64_MAX : req.limit + 1);
    int64_t sent = 0;
    while (query.step()) {
        MemoryRow row = memory_row(query);
        if (!host::passes_list_filters(req, row)) continue;
        if (sent == req.limit) {
            out.result(HasMore{});
            break;
        }
        emit_memory(out, row, false);
        ++sent;
    }
}

void memory_keys(Db& db, const mnemo_memory_keys_req& req, Output& out) {
    const std::map<int64_t, MemoryRow> rows = memories_by_keys(db, {req.keys, req.keys + req.n_keys});
    for (size_t i = 0; i < req.n_keys; ++i) {
        auto row = rows.find(req.keys[i]);
        if (row != rows.end() && passes(req.filter, row->second)) emit_memory(out, row->second, req.with_vector != 0);
    }
}

void memory_candidates(Db& db, const mnemo_memory_candidates_req& req, Output& out) {
    require_memory_limit("memory candidates", req.limit);
    int64_t sent = 0;
    for_each_in_scope(db, req.filter, " AND vector_blob IS NOT NULL", [&](const MemoryRow& row) {
        if (sent > req.limit || !passes(req.filter, row)) return;
        out.result(MemoryKey{row.key});
        ++sent;
    });
}

void memory_changes(Db& db, const mnemo_memory_changes_req& req, Output& out) {
    require_memory_limit("memory changes", req.limit);
    int64_t horizon = 0;
    {
        Query feed(db, "SELECT horizon FROM memory_feed WHERE id = 1");
        if (feed.step()) horizon = feed.i64(0);
    }
    mnemo_memory_feed_result result{req.after_seq, horizon, 0};
    if (req.after_seq > 0 && req.after_seq < horizon) {
        out.result(result);  // removals it would need were forgotten: start again from 0
        return;
    }
    const std::vector<MemoryRow> rows = changed_rows(db, req.after_seq, req.limit);
    const std::vector<Removal> removals = removals_after(db, req.after_seq, req.limit);
    size_t r = 0, d = 0;
    for (int64_t sent = 0; r < rows.size() || d < removals.size(); ++sent) {
        if (sent == req.limit) {
            result.more = 1;
            break;
        }
        if (d == removals.size() || (r < rows.size() && rows[r].change_seq < removals[d].change_seq)) {
            emit_memory(out, rows[r], true);
            result.last_seq = rows[r++].change_seq;
        } else {
            emit_removal(out, removals[d]);
            result.last_seq = removals[d++].change_seq;
        }
    }
    out.result(result);
}

void memory_pending(Db& db, const mnemo_memory_pending_req& req, Output& out) {
    require_memory_limit("memory pending", req.limit);
    Query query(db, kMemoryPendingSql);
    query.args(req.after_key, req.now_us, req.limit);
    while (query.step()) emit_memory(out, memory_row(query), false);
}

void memory_count(Db& db, const mnemo_memory_count_req& req, Output& out) {
    // stale: a vector of another length than the app's dimension (memory_reembed to another model).
    Query query(db,
                "SELECT m.embedding, COUNT(*), SUM(CASE WHEN m.vector_blob IS NOT NULL AND LENGTH(m.vector_blob) <> " +
                    std::to_string(sizeof(float)) +
                    " * a.dimension THEN 1 ELSE 0 END) FROM memories m LEFT JOIN memory_apps a ON a.app = m.app "
                    "WHERE (? IS NULL OR m.app = ?) AND (? IS NULL OR m.user = ?) "
                    "AND (m.expires_at = 0 OR m.expires_at > +?) GROUP BY m.embedding");
    query.args(req.app, req.app, req.user, req.user, req.now_us);
    mnemo_memory_count_result count{};
    while (query.step()) {
        count_status(count, static_cast<int>(query.i64(0)), query.i64(1));
        count.stale += query.i64(2);
    }
    if (req.app.ptr) count.dimension = app_dimension(db, view(req.app));
    out.result(count);
}

}  // namespace mnemo::sqlcore
