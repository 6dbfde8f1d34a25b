// dialect.cpp -- the SQL core's statement table on MySQL/MariaDB
// (sql/dialect.h), and the event insert with its search columns
// (search_tokens.h: the words the FULLTEXT index holds).
#include "connection.h"
#include "dialect.h"
#include "hot_queries.h"
#include "memory_rows.h"
#include "search_sql.h"
#include "search_tokens.h"

namespace mnemo::mysql {
namespace {

// Every word as a required term of memories_search (search_tokens.h: every
// word of the search rules has a token within the default token sizes).
sqlcore::MemoryMatch memory_match(sqlcore::Db&, const std::vector<std::string>& folded_words, bool by_user) {
    static const std::string select = std::string("SELECT ") + sqlcore::kMemoryColumns +
                                      " FROM memories WHERE MATCH (search_tokens) AGAINST (? IN BOOLEAN MODE) AND ";
    static const std::string app_sql = select + sqlcore::kMemoryAppScopeSql;
    static const std::string user_sql = select + sqlcore::kMemoryUserScopeSql;
    std::string against;
    for (const std::string& word : folded_words) against += (against.empty() ? "+" : " +") + search_tokens::token(word);
    return {by_user ? user_sql : app_sql, against};
}

// Reads that decide a write lock their rows (FOR UPDATE) so a write's
// decisions hold across processes until COMMIT.
const sqlcore::Dialect kMysql{
    .name = "mysql",
    .lock_session = kLockSessionSql,
    .user_sessions = "SELECT sid FROM sessions WHERE app = ? AND user = ? FOR UPDATE",
    .event_columns = kEventColumns,
    .event_select = event_select_sql,
    .find_visible_id = "SELECT seq, timestamp_us, author, role, content FROM events WHERE sid = ? AND visible_id = ?",
    .evict_cutoff = kEvictCutoffSql,
    .evict = kEvictSql,
    .search_context = kSearchContextSql,
    .count_visible =
        "SELECT COUNT(*) FROM events WHERE sid = ? AND deleted_at = 0 AND seq >= ? AND seq <= ? "
        "AND (? = '' OR filter_key = ? OR (filter_key >= CONCAT(?, '/') AND filter_key < CONCAT(?, '0')))",
    .scope_sql = {{
        {"SELECT value FROM session_state WHERE sid = ? AND skey = ?",
         "INSERT INTO session_state (sid, skey, value) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
         "DELETE FROM session_state WHERE sid = ? AND skey = ?", "DELETE FROM session_state WHERE sid = ?",
         "SELECT skey, value FROM session_state WHERE sid = ? ORDER BY skey"},
        {"SELECT value FROM app_state WHERE app = ? AND skey = ?",
         "INSERT INTO app_state (app, skey, value) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
         "DELETE FROM app_state WHERE app = ? AND skey = ?", "DELETE FROM app_state WHERE app = ?",
         "SELECT skey, value FROM app_state WHERE app = ? ORDER BY skey"},
        {"SELECT value FROM user_state WHERE app = ? AND user = ? AND skey = ?",
         "INSERT INTO user_state (app, user, skey, value) VALUES (?, ?, ?, ?) "
         "ON DUPLICATE KEY UPDATE value = VALUES(value)",
         "DELETE FROM user_state WHERE app = ? AND user = ? AND skey = ?",
         "DELETE FROM user_state WHERE app = ? AND user = ?",
         "SELECT skey, value FROM user_state WHERE app = ? AND user = ? ORDER BY skey"},
    }},
    .upsert_scope_row =
        "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, ?, ?) "
        "ON DUPLICATE KEY UPDATE expires_at = VALUES(expires_at), bytes = VALUES(bytes)",
    // ON DUPLICATE KEY takes the existing row's exclusive lock.
    .lock_scope_row =
        "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, 0, 0) "
        "ON DUPLICATE KEY UPDATE bytes = bytes",
    .lock_lane_version = "SELECT version, created_at FROM lanes WHERE app = ? AND lane = ? FOR UPDATE",
    MNEMO_SQL_DIALECT_HOT_QUERIES,
    .claim_finalize = "UPDATE sessions SET finalize_owner = ?, finalize_claim_until = ? WHERE sid = ?",
    .search_recent = kSearchRecentSql,
    .lock_rows = " FOR UPDATE",
    .memory_match = memory_match,
    .memory_tokens = search_tokens::tokens_of,
    .memory_index = "UPDATE memories SET search_tokens = ? WHERE row_key = ?",
};

}  // namespace

const sqlcore::Dialect& Conn::dialect() const {
    return kMysql;
}

void Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    Query insert(*this,
                 "INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, "
                 "state_delta, usage_json, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, "
                 "output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, "
                 "search_tokens) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::string_view search_text(event.search_text.ptr ? event.search_text.ptr : "", event.search_text.len);
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id,
                event.author.ptr ? event.author : str(""), event.role.ptr ? event.role : str(""), event.content_json,
                event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json, event.metadata_json,
                event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us, event.usage.input_tokens,
                event.usage.output_tokens, event.usage.cache_read_tokens, event.usage.cache_write_tokens,
                event.usage.total_tokens, event.usage.cost_usd, search_text, search_tokens::tokens_of(search_text));
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

}  // namespace mnemo::mysql
