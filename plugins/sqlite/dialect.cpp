// dialect.cpp -- the SQL core's statement table on SQLite (sql/dialect.h).
#include "connection.h"
#include "host_services.h"
#include "dialect.h"
#include "hot_queries.h"
#include "memory_backlog.h"
#include "memory_rows.h"
#include "term_tokenizer.h"

namespace mnemo::sqlite {
namespace {

// Host terms as FTS5 strings of the "mnemo" tokenizer's indexes, which
// take a query string as one token (term_tokenizer.h).
std::string match_terms(const std::vector<std::string>& terms, bool all) {
    std::string out;
    for (const std::string& term : terms) out += (out.empty() ? "" : all ? " AND " : " OR ") + fts5_string(term);
    return out;
}

// For the whole app the terms' posting lists lead (`+app` keeps the planner
// off the app's index, which would read every memory of the app); for one
// user the user's index leads and the posting list is a set looked up
// (`+row_key`), so a common word costs a list of row ids, not a row read per
// memory holding it.
const std::string kMemoryWordsSql = "IN (SELECT rowid FROM memories_words WHERE memories_words MATCH ?) AND ";

}  // namespace

// Parameters are positional in the order sql/dialect.h gives; a ?N names the
// N-th, so a statement may use one parameter twice.
const sqlcore::Dialect kDialect{
    .name = "sqlite",
    .event_columns = kEventColumns,
    .role_in_list = "instr(',' || replace(?, ' ', '') || ',', ',' || role || ',') > 0",
    .filter_key_below = "(filter_key = ? OR (filter_key >= ? || '/' AND filter_key < ? || '0'))",
    .find_visible_id = kFindVisibleIdSql,
    .state = sqlcore::state_statements("key", {"ON CONFLICT (%) DO UPDATE SET ", "excluded.%"}),
    // The writer thread serializes every write: nothing to lock.
    .lock_scope_row = nullptr,
    MNEMO_SQL_DIALECT_HOT_QUERIES,
    // One process owns the file: nothing to claim.
    .claim_finalize = nullptr,
    .search_recent = kSearchRecentSql,
    .search_scope_app = question_scope_sql(false),
    .search_scope_user = question_scope_sql(true),
    // FTS5 reads a rare word's holders quickly.
    .rare_holders_per_session = 0.5,
    // FTS5 reads an exact token's holders for less.
    .packed_clauses = false,
    // Not read: exact tokens go to FTS5.
    .events_by_key_pairs = nullptr,
    .match_terms = match_terms,
    .memory_match_app = std::string("SELECT ") + sqlcore::kMemoryRankColumns + " FROM memories WHERE row_key " +
                        kMemoryWordsSql + "+app = ? AND (expires_at = 0 OR expires_at > +?)",
    .memory_unindexed_app =
        sqlcore::kSelectMemoriesSql + "WHERE " + kMemoryUnindexedRange + sqlcore::kMemoryAppScopeSql,
    // Triggers keep memories_words (migrations.h).
    .memory_tokens = nullptr,
    .memory_index = nullptr,
    .memory_app_stats_add = "INSERT INTO memory_app_stats (app, documents, length) VALUES (?1, ?2, ?3) "
                            "ON CONFLICT (app) DO UPDATE SET documents = documents + ?2, length = length + ?3",
    .memory_term_stats_add = "INSERT INTO memory_term_stats (app, term, documents) VALUES (?1, ?2, ?3) "
                             "ON CONFLICT (app, term) DO UPDATE SET documents = documents + ?3",
    // The writer's two backlogs (memory_backlog.h) are done.
    .memory_lists_complete = "SELECT (SELECT up_to >= end_key FROM memories_terms) AND "
                             "(SELECT up_to >= end_key FROM memories_indexed)",
};

}  // namespace mnemo::sqlite
