// dialect.cpp -- the SQL core's statement table on SQLite (sql/dialect.h).
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
// then, like the events' CJK queries without trigrams).
std::string memory_match_term(const std::string& folded_word) {
    return host::has_cjk(folded_word) ? "" : fts5_string(folded_word);
}

// For the whole app the words' posting lists lead (`+app` keeps the planner
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
    .memory_match_app = sqlcore::kSelectMemoriesSql + "WHERE row_key " + kMemoryWordsSql +
                        "+app = ? AND (expires_at = 0 OR expires_at > ?)",
    .memory_match_user =
        sqlcore::kSelectMemoriesSql + "WHERE +row_key " + kMemoryWordsSql + sqlcore::kMemoryUserScopeSql,
    .memory_match_term = memory_match_term,
    // Triggers keep memories_words (migrations.h).
    .memory_tokens = nullptr,
    .memory_index = nullptr,
};

}  // namespace mnemo::sqlite
