// memory_sql.h -- the statements of the memory operations whose cost would
// grow with the number of memories, in one place so the query-plan tests
// of both backends EXPLAIN these exact texts. The same text runs on every
// engine (`?` parameters, in the order each comment gives); a write locks
// the rows of the reads whose rows it then changes (db.h's with_lock).
#pragma once

#include "mnemo_plugin.h"

#include <string>

namespace mnemo::sqlcore {

// The columns memory_row() reads, in its order.
inline constexpr const char* kMemoryColumns =
    "row_key, app, user, id, name_space, text, folded_text, metadata, session_id, source_session, source_seq, "
    "embedding, embedding_model, vector_blob, text_version, created_at, updated_at, expires_at, change_seq, word_count";
// A recall's scope (memory_filter.h's scope_sql): app, user, now; app, now.
inline constexpr const char* kMemoryUserScopeSql = "app = ? AND user = ? AND (expires_at = 0 OR expires_at > +?)";
inline constexpr const char* kMemoryAppScopeSql = "app = ? AND (expires_at = 0 OR expires_at > +?)";
inline const std::string kSelectMemoriesSql = std::string("SELECT ") + kMemoryColumns + " FROM memories ";

// (app, user, id): the stored row of an id (memories_id).
inline const std::string kMemoryByIdSql = kSelectMemoriesSql + "WHERE app = ? AND user = ? AND id = ?";
// (app, user, namespace, folded text, now): dedupe's live match (memories_folded).
inline const std::string kMemoryByTextSql = kSelectMemoriesSql +
                                            "WHERE app = ? AND user = ? AND name_space = ? AND folded_text = ? "
                                            "AND (expires_at = 0 OR expires_at > +?) ORDER BY row_key LIMIT 1";
// What keyword recall ranks a memory by (its terms: NULL until a memory from
// before the column is listed), in the order ops_memories_search.cpp reads.
#define MNEMO_MEMORY_RANK_COLUMNS "row_key, updated_at, id, word_count, terms"
inline constexpr const char* kMemoryRankColumns = MNEMO_MEMORY_RANK_COLUMNS;
// (app, user, now): one user's live memories as keyword recall ranks them,
// which sqlite's memories_recall holds whole.
inline constexpr const char* kMemoryRecallUserSql =
    "SELECT " MNEMO_MEMORY_RANK_COLUMNS " FROM memories WHERE app = ? AND user = ? "
    "AND (expires_at = 0 OR expires_at > +?)";

// (now, app): an app's expired memories the sweep has not removed yet
// (memories_expiry, never the app's range: `+app`), which an app-wide
// recall takes out of memory_stats.h's counts.
inline constexpr const char* kMemoryExpiredOfAppSql =
    "SELECT word_count, terms FROM memories WHERE expires_at > 0 AND expires_at <= ? AND +app = ?";

// (key).
inline const std::string kMemoryByKeySql = kSelectMemoriesSql + "WHERE row_key = ?";

// An export step (app, after key, now, limit): the app's live memories in key order.
inline const std::string kMemoryExportSql = kSelectMemoriesSql +
                                            "WHERE app = ? AND row_key > ? AND (expires_at = 0 OR expires_at > +?) "
                                            "ORDER BY row_key LIMIT ?";

// A list page, newest first (memories_updated): app, user, now, namespace x2,
// session x2, the status set, each status in it (-1 for those out of it:
// none, pending, ready, failed), [cursor updated_at x2, cursor id,] limit.
// `embedding + 0` keeps the status off the indexes: a planner that saw it
// would take memories_pending and sort the app's rows instead of walking
// the user's memories_updated range. The cursor's bound
// on updated_at keeps a later page an index range too.
inline const std::string kMemoryListFilters =
    "WHERE app = ? AND user = ? AND (expires_at = 0 OR expires_at > +?) AND (? IS NULL OR name_space = ?) "
    "AND (? IS NULL OR session_id = ?) AND (? = 0 OR embedding + 0 IN (?, ?, ?, ?))";
inline const std::string kMemoryListFirstSql =
    kSelectMemoriesSql + kMemoryListFilters + " ORDER BY updated_at DESC, id DESC LIMIT ?";
inline const std::string kMemoryListAfterSql = kSelectMemoriesSql + kMemoryListFilters +
                                               " AND updated_at <= ? AND (updated_at < ? OR id < ?)"
                                               " ORDER BY updated_at DESC, id DESC LIMIT ?";

// The feed after a cursor (after_seq, limit): stored rows (memories_change)
// and removals (memory_removals' key).
inline const std::string kMemoryChangesSql = kSelectMemoriesSql + "WHERE change_seq > ? ORDER BY change_seq LIMIT ?";
inline constexpr const char* kMemoryRemovalsAfterSql =
    "SELECT change_seq, row_key, app, user, removed_at FROM memory_removals WHERE change_seq > ? "
    "ORDER BY change_seq LIMIT ?";

// (after_key, now, limit): the embedder's work, status pending (1: enum
// mnemo_embedding_status) written out so sqlite's partial memories_pending
// applies.
inline const std::string kMemoryPendingSql = kSelectMemoriesSql +
                                             "WHERE embedding = 1 AND row_key > ? AND "
                                             "(expires_at = 0 OR expires_at > +?) ORDER BY row_key LIMIT ?";
static_assert(MNEMO_EMBEDDING_PENDING == 1, "kMemoryPendingSql names the pending status by its number");

// The sweep (cutoff, limit): expired memories (memories_expiry) and old removals (memory_removals_age).
inline const std::string kMemoriesExpiredSql =
    kSelectMemoriesSql + "WHERE expires_at > 0 AND expires_at <= ? ORDER BY expires_at, row_key LIMIT ?";
inline constexpr const char* kMemoryRemovalsDueSql =
    "SELECT change_seq FROM memory_removals WHERE removed_at < ? ORDER BY removed_at, change_seq LIMIT ?";

// (app, user, session, from seq, session created_at): the rows captured from
// a session's events at or after a seq (memories_source), for the rewind or
// rewrite that hides them.
inline const std::string kMemoryCapturedSql = kSelectMemoriesSql +
                                              "WHERE app = ? AND user = ? AND source_session = ? AND source_seq >= ? "
                                              "AND created_at >= ?";

// (app, user): every stored row of a user, for the purge.
inline const std::string kUserMemoriesSql = kSelectMemoriesSql + "WHERE app = ? AND user = ?";

}  // namespace mnemo::sqlcore
