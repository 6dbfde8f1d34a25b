// dialect.cpp -- the SQL core's statement table on SQLite (sql/dialect.h),
// and the event insert with its search columns (the writer's SearchBacklog
// indexes the row before COMMIT: search_backlog.h).
#include "connection.h"
#include "host_services.h"
#include "dialect.h"
#include "hot_queries.h"
#include "memory_rows.h"
#include "word_tokenizer.h"

namespace mnemo::sqlite {
namespace {

// Every word as a term of memories_words (which folds as the host does,
// but CJK runs, which the host splits per character, not at all: a scan
// then, like the events' CJK queries without trigrams). For the whole app
// the words' posting lists lead (`+app` keeps the planner off the app's
// index, which would read every memory of the app); for one user the user's
// index leads and the posting list is a set looked up (`+row_key`), so a
// common word costs a list of row ids, not a row read per memory holding it.
sqlcore::MemoryMatch memory_match(sqlcore::Db&, const std::vector<std::string>& folded_words, bool by_user) {
    static const std::string select = std::string("SELECT ") + sqlcore::kMemoryColumns + " FROM memories WHERE ";
    static const std::string words = "IN (SELECT rowid FROM memories_words WHERE memories_words MATCH ?) AND ";
    static const std::string app_sql = select + "row_key " + words + "+app = ? AND (expires_at = 0 OR expires_at > ?)";
    static const std::string user_sql = select + "+row_key " + words + sqlcore::kMemoryUserScopeSql;
    std::string match;
    for (const std::string& word : folded_words) {
        if (host::has_cjk(word)) return {};
        match += (match.empty() ? "" : " ") + fts5_string(word);
    }
    return {by_user ? user_sql : app_sql, match};
}

// Parameters are positional in the order sql/dialect.h gives; a ?N names the
// N-th, so a statement may use one parameter twice.
const sqlcore::Dialect kSqlite{
    .name = "sqlite",
    .lock_session = kFindSessionSql,
    .user_sessions = "SELECT sid FROM sessions WHERE app = ?1 AND user = ?2",
    .event_columns = kEventColumns,
    .event_select = event_select_sql,
    .find_visible_id = kFindVisibleIdSql,
    .evict_cutoff = kEvictCutoffSql,
    .evict = kEvictSql,
    .search_context = sqlcore::search_context_sql(kEventColumns),
    .count_visible =
        "SELECT count(*) FROM events WHERE sid = ?1 AND deleted_at = 0 AND seq >= ?2 AND seq <= ?3 "
        "AND (?4 = '' OR filter_key = ?5 OR (filter_key >= ?6 || '/' AND filter_key < ?7 || '0'))",
    .scope_sql = {{
        {"SELECT value FROM session_state WHERE sid = ?1 AND key = ?2",
         "INSERT INTO session_state (sid, key, value) VALUES (?1, ?2, ?3) "
         "ON CONFLICT (sid, key) DO UPDATE SET value = excluded.value",
         "DELETE FROM session_state WHERE sid = ?1 AND key = ?2", "DELETE FROM session_state WHERE sid = ?1",
         "SELECT key, value FROM session_state WHERE sid = ?1 ORDER BY key"},
        {"SELECT value FROM app_state WHERE app = ?1 AND key = ?2",
         "INSERT INTO app_state (app, key, value) VALUES (?1, ?2, ?3) "
         "ON CONFLICT (app, key) DO UPDATE SET value = excluded.value",
         "DELETE FROM app_state WHERE app = ?1 AND key = ?2", "DELETE FROM app_state WHERE app = ?1",
         "SELECT key, value FROM app_state WHERE app = ?1 ORDER BY key"},
        {"SELECT value FROM user_state WHERE app = ?1 AND user = ?2 AND key = ?3",
         "INSERT INTO user_state (app, user, key, value) VALUES (?1, ?2, ?3, ?4) "
         "ON CONFLICT (app, user, key) DO UPDATE SET value = excluded.value",
         "DELETE FROM user_state WHERE app = ?1 AND user = ?2 AND key = ?3",
         "DELETE FROM user_state WHERE app = ?1 AND user = ?2",
         "SELECT key, value FROM user_state WHERE app = ?1 AND user = ?2 ORDER BY key"},
    }},
    .upsert_scope_row =
        "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT (scope, app, user) DO UPDATE SET expires_at = excluded.expires_at, "
        "bytes = excluded.bytes",
    // The writer thread serializes every write: nothing to lock.
    .lock_scope_row = nullptr,
    .lock_lane_version = kLaneVersionSql,
    MNEMO_SQL_DIALECT_HOT_QUERIES,
    // One process owns the file: nothing to claim.
    .claim_finalize = nullptr,
    .search_recent = kSearchRecentSql,
    .lock_rows = "",
    .memory_match = memory_match,
    // Triggers keep memories_words (migrations.h).
    .memory_tokens = nullptr,
    .memory_index = nullptr,
};

}  // namespace

const sqlcore::Dialect& Conn::dialect() const {
    return kSqlite;
}

void Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    Query insert(
        *this,
        "INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, state_delta, "
        "usage, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, output_tokens, "
        "cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, search_trigrams) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
        "?23)");
    std::string_view search_text(event.search_text.ptr ? event.search_text.ptr : "", event.search_text.len);
    bool trigrams = host::has_cjk(search_text);
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id, event.author, event.role,
                event.content_json, event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json,
                event.metadata_json, event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us,
                event.usage.input_tokens, event.usage.output_tokens, event.usage.cache_read_tokens,
                event.usage.cache_write_tokens, event.usage.total_tokens, event.usage.cost_usd, search_text,
                trigrams ? 1 : 0);
    insert.run();
    search_backlog_.inserted(*this, last_insert_id(), search_text, trigrams);
}

}  // namespace mnemo::sqlite
