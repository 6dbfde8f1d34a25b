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

// Host terms as tokens of a boolean-mode expression, each required when
// all (search_tokens.h: every term has a token within the default token
// sizes).
std::string match_terms(const std::vector<std::string>& terms, bool all) {
    std::string out;
    for (const std::string& term : terms)
        out += (out.empty() ? "" : " ") + std::string(all ? "+" : "") + search_tokens::token(term);
    return out;
}

std::string memory_tokens(std::string_view text) {
    return search_tokens::tokens_of(text);
}
const std::string kSelectMemoriesMatchSql = std::string("SELECT ") + sqlcore::kMemoryRankColumns +
                                            " FROM memories WHERE MATCH (search_tokens) AGAINST (? IN BOOLEAN MODE) AND ";

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
    .search_scope_app = kSearchScopeAppSql,
    .search_scope_user = kSearchScopeUserSql,
    // The server's index reads each holder's row and text back: never cheaper.
    .rare_holders_per_session = 0,
    .packed_clauses = true,
    .events_by_key_pairs = "events FORCE INDEX (PRIMARY)",
    .match_terms = match_terms,
    .memory_match_app = kSelectMemoriesMatchSql + sqlcore::kMemoryAppScopeSql,
    // The FULLTEXT index holds every memory as it is written.
    .memory_unindexed_app = "",
    .memory_tokens = memory_tokens,
    .memory_index = "UPDATE memories SET search_tokens = ? WHERE row_key = ?",
    .memory_app_stats_add = "INSERT INTO memory_app_stats (app, documents, length) VALUES (?, ?, ?) "
                            "ON DUPLICATE KEY UPDATE documents = documents + VALUES(documents), "
                            "length = length + VALUES(length)",
    .memory_term_stats_add = "INSERT INTO memory_term_stats (app, term, documents) VALUES (?, ?, ?) "
                             "ON DUPLICATE KEY UPDATE documents = documents + VALUES(documents)",
    // The lists are filled at open, before the daemon serves (schema.h).
    .memory_lists_complete = "SELECT 1",
};

}  // namespace mnemo::mysql
