// dialect.cpp -- the SQL core's statement table on PostgreSQL
// (sql/dialect.h; sql_text.h says how the core's shared texts are rewritten).
#include "connection.h"
#include "dialect.h"
#include "hot_queries.h"
#include "memory_rows.h"
#include "search_sql.h"
#include "search_terms.h"

namespace mnemo::postgres {
namespace {

std::string memory_lexemes(std::string_view text) {
    return search_terms::lexeme_array(text);
}

const std::string kSelectMemoriesMatchSql =
    std::string("SELECT ") + sqlcore::kMemoryRankColumns + " FROM memories WHERE search_tsv @@ ?::tsquery AND ";

}  // namespace

// Writes lock what they decide on (a scope row, a finalize claim) so their
// decisions hold across processes until COMMIT.
const sqlcore::Dialect kDialect{
    .name = "postgres",
    .event_columns = kEventColumns,
    .role_in_list = "role = ANY (string_to_array(replace(?::text, ' ', ''), ','))",
    .filter_key_below = "(filter_key = ? OR (filter_key >= (?::text || '/') AND filter_key < (?::text || '0')))",
    .find_visible_id =
        "SELECT seq, timestamp_us, author, role, content FROM events WHERE sid = ? AND id = ? AND deleted_at = 0",
    .state = sqlcore::state_statements("skey", {"ON CONFLICT (%) DO UPDATE SET ", "EXCLUDED.%"}),
    // ON CONFLICT DO UPDATE takes the existing row's lock.
    .lock_scope_row = "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, 0, 0) "
                      "ON CONFLICT (scope, app, user) DO UPDATE SET bytes = state_scopes.bytes",
    MNEMO_SQL_DIALECT_HOT_QUERIES,
    .claim_finalize = "UPDATE sessions SET finalize_owner = ?, finalize_claim_until = ? WHERE sid = ?",
    .search_recent = kSearchRecentSql,
    .search_scope_app = kSearchScopeAppSql,
    .search_scope_user = kSearchScopeUserSql,
    // The server's index reads each holder's row and text back: never cheaper.
    .rare_holders_per_session = 0,
    .packed_clauses = true,
    .events_by_key_pairs = "events",
    .match_terms = search_terms::tsquery,
    .memory_match_app = kSelectMemoriesMatchSql + sqlcore::kMemoryAppScopeSql,
    // The GIN index holds every memory as it is written.
    .memory_unindexed_app = "",
    .memory_tokens = memory_lexemes,
    .memory_index = "UPDATE memories SET search_tsv = array_to_tsvector(?::text[]) WHERE row_key = ?",
    .memory_app_stats_add = "INSERT INTO memory_app_stats (app, documents, length) VALUES (?, ?, ?) "
                            "ON CONFLICT (app) DO UPDATE SET documents = memory_app_stats.documents + "
                            "EXCLUDED.documents, length = memory_app_stats.length + EXCLUDED.length",
    .memory_term_stats_add = "INSERT INTO memory_term_stats (app, term, documents) VALUES (?, ?, ?) "
                             "ON CONFLICT (app, term) DO UPDATE SET documents = memory_term_stats.documents + "
                             "EXCLUDED.documents",
    // Every memory has its list and its lexemes from its first write.
    .memory_lists_complete = "SELECT 1",
};

}  // namespace mnemo::postgres
