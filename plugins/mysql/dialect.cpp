// dialect.cpp -- the SQL core's statement table on MySQL/MariaDB
// (sql/dialect.h).
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
std::string memory_match_term(const std::string& folded_word) {
    return "+" + search_tokens::token(folded_word);
}
const std::string kSelectMemoriesMatchSql =
    sqlcore::kSelectMemoriesSql + "WHERE MATCH (search_tokens) AGAINST (? IN BOOLEAN MODE) AND ";

}  // namespace

// Writes lock what they decide on (a scope row, a finalize claim) so their
// decisions hold across processes until COMMIT.
const sqlcore::Dialect kDialect{
    .name = "mysql",
    .event_columns = kEventColumns,
    .role_in_list = "FIND_IN_SET(role, REPLACE(?, ' ', '')) > 0",
    .filter_key_below = "(filter_key = ? OR (filter_key >= CONCAT(?, '/') AND filter_key < CONCAT(?, '0')))",
    .find_visible_id = "SELECT seq, timestamp_us, author, role, content FROM events WHERE sid = ? AND visible_id = ?",
    // `key` is a reserved word in MySQL.
    .state = sqlcore::state_statements("skey", {"ON DUPLICATE KEY UPDATE ", "VALUES(%)"}),
    // ON DUPLICATE KEY takes the existing row's exclusive lock.
    .lock_scope_row =
        "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, 0, 0) "
        "ON DUPLICATE KEY UPDATE bytes = bytes",
    MNEMO_SQL_DIALECT_HOT_QUERIES,
    .claim_finalize = "UPDATE sessions SET finalize_owner = ?, finalize_claim_until = ? WHERE sid = ?",
    .search_recent = kSearchRecentSql,
    .memory_match_app = kSelectMemoriesMatchSql + sqlcore::kMemoryAppScopeSql,
    .memory_match_user = kSelectMemoriesMatchSql + sqlcore::kMemoryUserScopeSql,
    .memory_match_term = memory_match_term,
    .memory_tokens = search_tokens::tokens_of,
    .memory_index = "UPDATE memories SET search_tokens = ? WHERE row_key = ?",
};

}  // namespace mnemo::mysql
