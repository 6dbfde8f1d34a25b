#include "event_rows.h"

#include "core/search_words.h"
#include "hot_queries.h"
#include "rules.h"

#include <algorithm>

namespace mnemo::sqlite {
namespace {

void emit_event_row(const Query& row, Output& out) {
    mnemo_event event{};
    event.seq = row.i64(0);
    event.id = row.str(1);
    event.id_from_client = static_cast<int>(row.i64(2));
    event.invocation_id = row.str(3);
    event.author = row.str(4);
    event.role = row.str(5);
    event.content_json = row.str(6);
    event.state_delta_json = row.str(7);
    event.usage_json = row.str(8);
    event.tool_calls_json = row.str(9);
    event.media_json = row.str(10);
    event.metadata_json = row.str(11);
    event.filter_key = row.str(12);
    event.timestamp_us = row.i64(13);
    event.usage = mnemo_usage{row.i64(14), row.i64(15), row.i64(16), row.i64(17), row.i64(18), row.f64(19)};
    event.deleted_at_us = row.i64(20);
    out.event(event);
}

bool has_text(mnemo_str s) {
    return s.ptr && s.len > 0;
}

}  // namespace

void Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    Query insert(
        *this,
        "INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, state_delta, "
        "usage, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, output_tokens, "
        "cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, search_trigrams) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
        "?23)");
    std::string_view search_text(event.search_text.ptr ? event.search_text.ptr : "", event.search_text.len);
    bool trigrams = core::search_words::has_cjk(search_text);
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id, event.author, event.role,
                event.content_json, event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json,
                event.metadata_json, event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us,
                event.usage.input_tokens, event.usage.output_tokens, event.usage.cache_read_tokens,
                event.usage.cache_write_tokens, event.usage.total_tokens, event.usage.cost_usd, search_text,
                trigrams ? 1 : 0);
    insert.run();
    search_backlog_.inserted(*this, last_insert_id(), search_text, trigrams);
}

void insert_event(Conn& conn, int64_t sid, int64_t seq, const mnemo_event& event) {
    conn.insert_event_row(sid, seq, event);
}

std::optional<StoredEvent> find_visible_by_id(Conn& conn, int64_t sid, const mnemo_event& event) {
    Query row(conn, kFindVisibleIdSql);
    row.args(sid, event.id);
    if (!row.step()) return std::nullopt;
    bool identical = same_bytes(row.str(2), event.author) && same_bytes(row.str(3), event.role) &&
                     same_bytes(row.str(4), event.content_json);
    return StoredEvent{row.i64(0), row.i64(1), identical};
}

int64_t evict_oldest(Conn& conn, int64_t sid, int64_t count) {
    if (count <= 0) return 0;
    Query cutoff(conn, kEvictCutoffSql);
    cutoff.args(sid, count - 1);
    if (!cutoff.step()) return 0;
    int64_t last_evicted = cutoff.i64(0);
    Query(conn, kEvictSql).args(sid, last_evicted).run();
    return conn.changes();
}

int64_t soft_delete_from(Conn& conn, int64_t sid, int64_t from_seq, int64_t now_us) {
    Query(conn, "UPDATE events SET deleted_at = ?3 WHERE sid = ?1 AND deleted_at = 0 AND seq >= ?2")
        .args(sid, from_seq, now_us)
        .run();
    return conn.changes();
}

std::optional<int64_t> latest_user_turn(Conn& conn, int64_t sid, int64_t before_seq) {
    Query row(conn,
              "SELECT seq FROM events WHERE sid = ?1 AND deleted_at = 0 AND seq < ?2 AND role = 'user' "
              "ORDER BY seq DESC LIMIT 1");
    row.args(sid, before_seq);
    if (!row.step()) return std::nullopt;
    return row.i64(0);
}

void emit_event_at(Conn& conn, int64_t sid, int64_t seq, Output& out) {
    Query row(conn, std::string("SELECT ") + kEventColumns + " FROM events WHERE sid = ?1 AND seq = ?2");
    row.args(sid, seq);
    if (row.step()) emit_event_row(row, out);
}

void emit_events(Conn& conn, int64_t sid, const mnemo_event_filter& filter, int64_t floor_seq, Output& out) {
    EventQueryShape shape;
    shape.include_deleted = filter.include_deleted != 0;
    shape.after_ts = filter.after_ts_us != 0;
    shape.roles = has_text(filter.roles);
    shape.filter_key = has_text(filter.filter_key);
    shape.num_recent = filter.num_recent > 0;
    Query rows(conn, event_select_sql(shape));
    // Every shape references ?7, so all seven parameters can be bound.
    rows.args(sid, std::max(filter.after_seq, floor_seq), filter.after_ts_us, filter.roles, filter.filter_key,
              filter.num_recent, filter.limit > 0 ? filter.limit + 1 : int64_t{-1});
    int64_t emitted = 0;
    while (rows.step()) {
        if (filter.limit > 0 && emitted == filter.limit) {
            out.count("has_more", 1);
            return;
        }
        emit_event_row(rows, out);
        ++emitted;
    }
}

void emit_context(Conn& conn, int64_t sid, int64_t seq, int64_t context, Output& out) {
    Query rows(conn, std::string("SELECT ") + kEventColumns +
                         " FROM events WHERE sid = ?1 AND deleted_at = 0"
                         " AND seq >= coalesce((SELECT min(seq) FROM (SELECT seq FROM events WHERE sid = ?1"
                         " AND deleted_at = 0 AND seq < ?2 ORDER BY seq DESC LIMIT ?3)), ?2)"
                         " AND seq <= coalesce((SELECT max(seq) FROM (SELECT seq FROM events WHERE sid = ?1"
                         " AND deleted_at = 0 AND seq > ?2 ORDER BY seq LIMIT ?3)), ?2)"
                         " ORDER BY seq");
    rows.args(sid, seq, context);
    while (rows.step()) emit_event_row(rows, out);
}

int64_t count_visible(Conn& conn, int64_t sid, mnemo_str filter_key, int64_t from_seq, int64_t to_seq) {
    Query row(conn,
              "SELECT count(*) FROM events WHERE sid = ?1 AND deleted_at = 0 AND seq >= ?2 AND seq <= ?3 "
              "AND (?4 = '' OR filter_key = ?4 OR (filter_key >= ?4 || '/' AND filter_key < ?4 || '0'))");
    row.args(sid, from_seq, to_seq, filter_key.ptr ? filter_key : str(""));
    return row.step() ? row.i64(0) : 0;
}

}  // namespace mnemo::sqlite
