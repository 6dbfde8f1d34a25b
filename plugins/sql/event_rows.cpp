#include "event_rows.h"

#include "columns.h"
#include "dialect.h"
#include "event_keys.h"

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

namespace mnemo::sqlcore {
namespace {

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

// The event of a row whose columns from `first` on are dialect.event_columns;
// its strings live until the row's next step.
mnemo_event event_of_row(const Query& row, int first = 0) {
    auto i64 = [&](int column) { return row.i64(first + column); };
    auto str = [&](int column) { return row.str(first + column); };
    mnemo_event event{};
    event.seq = i64(0);
    event.id = str(1);
    event.id_from_client = static_cast<int>(i64(2));
    event.invocation_id = str(3);
    event.author = str(4);
    event.role = str(5);
    event.content_json = str(6);
    event.state_delta_json = str(7);
    event.usage_json = str(8);
    event.tool_calls_json = str(9);
    event.media_json = str(10);
    event.metadata_json = str(11);
    event.filter_key = str(12);
    event.timestamp_us = i64(13);
    event.usage = mnemo_usage{i64(14), i64(15), i64(16), i64(17), i64(18), row.f64(first + 19)};
    event.deleted_at_us = i64(20);
    return event;
}

void emit_event_row(const Query& row, Output& out) {
    out.event(event_of_row(row));
}

bool has_text(mnemo_str s) {
    return s.ptr && s.len > 0;
}

}  // namespace

int64_t insert_event(Db& db, int64_t sid, int64_t seq, const mnemo_event& event) {
    return db.insert_event_row(sid, seq, event);
}

std::string indexed_event_insert_sql(const char* index_column, const char* index_value) {
    return std::string("INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, "
                       "state_delta, usage_json, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, "
                       "output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, ") +
           index_column +
           ", term_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + index_value +
           ", ?)";
}

void insert_indexed_event(Db& db, const std::string& sql, int64_t sid, int64_t seq, const mnemo_event& event,
                          const std::string& index, int64_t terms) {
    Query insert(db, sql);
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id,
                event.author.ptr ? event.author : str(""), event.role.ptr ? event.role : str(""), event.content_json,
                event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json, event.metadata_json,
                event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us, event.usage.input_tokens,
                event.usage.output_tokens, event.usage.cache_read_tokens, event.usage.cache_write_tokens,
                event.usage.total_tokens, event.usage.cost_usd, event.search_text.ptr ? event.search_text : str(""),
                index, terms);
    try {
        insert.run();
    } catch (const StoreError& e) {
        // The only unique key an insert can break: a visible event holds the id.
        if (!e.duplicate_key()) throw;
        throw StoreError(MNEMO_E_INVALID, "event id " + text(event.id) +
                                              " is given twice to one session; ids must "
                                              "be unique among its visible events");
    }
}

std::optional<StoredEvent> find_visible_by_id(Db& db, int64_t sid, const mnemo_event& event) {
    Query row(db, db.dialect().find_visible_id);
    row.args(sid, event.id);
    if (!row.step()) return std::nullopt;
    bool identical = same_bytes(row.str(2), event.author) && same_bytes(row.str(3), event.role) &&
                     same_bytes(row.str(4), event.content_json);
    return StoredEvent{row.i64(0), row.i64(1), identical};
}

int64_t evict_oldest(Db& db, int64_t sid, int64_t count, int64_t* terms) {
    if (count <= 0) return 0;
    int64_t last_evicted = 0;
    {
        Query cutoff(db, kEvictCutoffSql);
        cutoff.args(sid, count - 1);
        if (!cutoff.step()) return 0;
        last_evicted = cutoff.i64(0);
    }
    {
        Query sum(db, kEvictTermsSql);
        sum.args(sid, last_evicted);
        if (sum.step()) *terms += sum.i64(0);
    }
    return Query(db, kEvictSql).args(sid, last_evicted).run();
}

int64_t soft_delete_from(Db& db, int64_t sid, int64_t from_seq, int64_t now_us, int64_t* terms) {
    {
        Query sum(db, "SELECT COALESCE(SUM(term_count), 0) FROM events WHERE sid = ? AND deleted_at = 0 AND seq >= ?");
        sum.args(sid, from_seq);
        if (sum.step()) *terms += sum.i64(0);
    }
    return Query(db, "UPDATE events SET deleted_at = ? WHERE sid = ? AND deleted_at = 0 AND seq >= ?")
        .args(now_us, sid, from_seq)
        .run();
}

std::optional<int64_t> first_visible_seq(Db& db, int64_t sid) {
    Query row(db, "SELECT seq FROM events WHERE sid = ? AND deleted_at = 0 ORDER BY seq LIMIT 1");
    row.args(sid);
    if (!row.step()) return std::nullopt;
    return row.i64(0);
}

std::optional<int64_t> latest_user_turn(Db& db, int64_t sid, int64_t before_seq) {
    Query row(db,
              "SELECT seq FROM events WHERE sid = ? AND deleted_at = 0 AND seq < ? AND role = 'user' "
              "ORDER BY seq DESC LIMIT 1");
    row.args(sid, before_seq);
    if (!row.step()) return std::nullopt;
    return row.i64(0);
}

void emit_event_at(Db& db, int64_t sid, int64_t seq, Output& out) {
    Query row(db, std::string("SELECT ") + db.dialect().event_columns + " FROM events WHERE sid = ? AND seq = ?");
    row.args(sid, seq);
    if (row.step()) emit_event_row(row, out);
}

// A filter key K matches K and K/...: the byte range [K + "/", K + "0")
// holds exactly the strings that start with K + "/", so the test needs no
// LIKE escaping.
std::string event_select_sql(const Dialect& dialect, const EventQueryShape& shape) {
    std::string sql = std::string("SELECT ") + dialect.event_columns + " FROM events WHERE sid = ?";
    if (!shape.include_deleted) sql += " AND deleted_at = 0";
    sql += " AND seq > ?";
    if (shape.after_ts) sql += " AND timestamp_us > ?";
    if (shape.roles) sql += std::string(" AND ") + dialect.role_in_list;
    if (shape.filter_key) sql += std::string(" AND ") + dialect.filter_key_below;
    if (!shape.num_recent) return sql + " ORDER BY seq LIMIT ?";
    return "SELECT * FROM (" + sql + " ORDER BY seq DESC LIMIT ?) AS recent ORDER BY seq LIMIT ?";
}

void emit_events(Db& db, int64_t sid, const mnemo_event_filter& filter, int64_t floor_seq, Output& out) {
    EventQueryShape shape;
    shape.include_deleted = filter.include_deleted != 0;
    shape.after_ts = filter.after_ts_us != 0;
    shape.roles = has_text(filter.roles);
    shape.filter_key = has_text(filter.filter_key);
    shape.num_recent = filter.num_recent > 0;
    Query rows(db, event_select_sql(db.dialect(), shape));
    int index = 0;
    rows.bind(++index, sid);
    rows.bind(++index, std::max(filter.after_seq, floor_seq));
    if (shape.after_ts) rows.bind(++index, filter.after_ts_us);
    if (shape.roles) rows.bind(++index, filter.roles);
    if (shape.filter_key)
        for (int i = 0; i < 3; ++i) rows.bind(++index, filter.filter_key);
    if (shape.num_recent) rows.bind(++index, filter.num_recent);
    rows.bind(++index, filter.limit > 0 ? filter.limit + 1 : kNoLimit);
    int64_t emitted = 0;
    while (rows.step()) {
        if (filter.limit > 0 && emitted == filter.limit) {
            out.result(HasMore{});
            return;
        }
        emit_event_row(rows, out);
        ++emitted;
    }
}

void emit_context(Db& db, int64_t sid, int64_t seq, int64_t context, Output& out) {
    // The hit alone: one key look-up, not the window's subqueries (a
    // transcript search may write hundreds of hits, each a round trip on mysql).
    if (context <= 0) {
        Query row(db, std::string("SELECT ") + db.dialect().event_columns +
                          " FROM events WHERE sid = ? AND seq = ? AND deleted_at = 0");
        row.args(sid, seq);
        if (row.step()) emit_event_row(row, out);
        return;
    }
    Query rows(db, search_context_sql(db.dialect().event_columns));
    rows.args(sid, sid, seq, context, seq, sid, seq, context, seq);
    while (rows.step()) emit_event_row(rows, out);
}

HitWindows::HitWindows(Db& db, const std::vector<EventKey>& hits, int64_t context) : db_(db), context_(context) {
    std::vector<EventKey> keys;
    keys.reserve(hits.size() * static_cast<size_t>(2 * context + 1));
    for (const EventKey& hit : hits)
        for (int64_t seq = hit.seq - context; seq <= hit.seq + context; ++seq) keys.push_back({hit.sid, seq});
    for_each_event_at(db, std::move(keys), std::string("sid, ") + db.dialect().event_columns, [&](const Query& row) {
        const mnemo_event event = event_of_row(row, 1);
        found_.emplace(EventKey{row.i64(0), event.seq}, OwnedRow<mnemo_event, 11>(event, kEventStrings));
    });
}

void HitWindows::emit(EventKey hit, Output& out) const {
    out.result(SearchHit{hit.seq});
    for (int64_t seq = hit.seq - context_; seq <= hit.seq + context_; ++seq) {
        if (!found_.count({hit.sid, seq})) {
            emit_context(db_, hit.sid, hit.seq, context_, out);
            return;
        }
    }
    for (int64_t seq = hit.seq - context_; seq <= hit.seq + context_; ++seq) out.event(found_.at({hit.sid, seq}).view());
}

int64_t count_visible(Db& db, int64_t sid, mnemo_str filter_key, int64_t from_seq, int64_t to_seq) {
    mnemo_str key = filter_key.ptr ? filter_key : str("");
    Query row(db, std::string("SELECT COUNT(*) FROM events WHERE sid = ? AND deleted_at = 0 AND seq >= ? AND seq <= ? "
                              "AND (? = '' OR ") +
                      db.dialect().filter_key_below + ")");
    row.args(sid, from_seq, to_seq, key, key, key, key);
    return row.step() ? row.i64(0) : 0;
}

}  // namespace mnemo::sqlcore
