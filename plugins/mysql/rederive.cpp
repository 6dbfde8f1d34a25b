// The re-derivation of migrations.h kHostTermsVersion: every search column
// written under the old word rules is written again from the host's terms,
// a batch of at most kRederiveBatch rows per transaction (rows read by key
// order from where the last batch stopped, each updated by its key), so no
// transaction holds more row locks or undo than a batch.
//  - events without term_count (all of them at first; after a crash, the
//    ones not done yet): search_tokens and term_count;
//  - sessions, by sid ranges: search_terms, the sum over their visible
//    events;
//  - memories, by row_key: search_tokens and word_count (host terms).
#include "connection.h"
#include "host_services.h"
#include "migrations.h"
#include "schema.h"
#include "search_tokens.h"
#include "memory_stats.h"
#include "term_list.h"

#include <optional>
#include <vector>

namespace mnemo::mysql {
namespace {

constexpr const char* kUncountedEventsSql =
    "SELECT sid, seq, search_text FROM events WHERE sid >= ? AND (sid > ? OR seq > ?) AND term_count IS NULL "
    "ORDER BY sid, seq LIMIT ?";
constexpr const char* kSetEventTermsSql =
    "UPDATE events SET search_tokens = ?, term_count = ? WHERE sid = ? AND seq = ?";
constexpr const char* kSessionTermsSql =
    "UPDATE sessions s SET search_terms = (SELECT COALESCE(SUM(e.term_count), 0) FROM events e "
    "WHERE e.sid = s.sid AND e.deleted_at = 0) WHERE s.sid > ? AND s.sid <= ?";
constexpr const char* kMemoriesSql =
    "SELECT row_key, text, app FROM memories WHERE row_key > ? ORDER BY row_key LIMIT ?";
constexpr const char* kSetMemoryTermsSql = "UPDATE memories SET search_tokens = ?, word_count = ? WHERE row_key = ?";
constexpr const char* kUnlistedMemoriesSql =
    "SELECT row_key, text, app FROM memories WHERE row_key > ? AND terms IS NULL ORDER BY row_key LIMIT ?";
constexpr const char* kSetTermListSql = "UPDATE memories SET terms = ?, word_count = ? WHERE row_key = ?";

// Runs batch in a transaction of its own; rolls back what it did on failure.
template <typename Batch>
auto in_transaction(Conn& conn, Batch&& batch) {
    conn.exec("START TRANSACTION");
    try {
        auto result = batch();
        conn.exec("COMMIT");
        return result;
    } catch (...) {
        if (!conn.broken()) conn.exec("ROLLBACK");
        throw;
    }
}

struct EventRow {
    int64_t sid = 0, seq = 0;
    std::optional<std::string> text;
};

void rederive_events(Conn& conn) {
    int64_t sid = 0, seq = 0, done = 0;
    for (bool more = true; more;) {
        more = in_transaction(conn, [&] {
            std::vector<EventRow> rows;
            {
                Query read(conn, kUncountedEventsSql);
                read.args(sid, sid, seq, static_cast<int64_t>(kRederiveBatch));
                while (read.step())
                    rows.push_back(EventRow{read.i64(0), read.i64(1), host::optional_copy(read.str(2))});
            }
            for (const EventRow& row : rows) {
                int64_t terms = 0;
                std::optional<std::string> tokens;
                if (row.text) tokens = search_tokens::tokens_of(*row.text, &terms);
                Query(conn, kSetEventTermsSql)
                    .args(tokens ? str(*tokens) : mnemo_str{nullptr, 0}, terms, row.sid, row.seq)
                    .run();
            }
            if (!rows.empty()) {
                sid = rows.back().sid;
                seq = rows.back().seq;
            }
            done += static_cast<int64_t>(rows.size());
            return rows.size() == static_cast<size_t>(kRederiveBatch);
        });
        if (more && done % (100 * kRederiveBatch) == 0)
            host::log(MNEMO_LOG_INFO, "mysql",
                      "re-deriving search terms: " + std::to_string(done) + " events so far (" + conn.where() + ")");
    }
}

void rederive_sessions(Conn& conn) {
    int64_t newest = 0;
    {
        Query max(conn, "SELECT COALESCE(MAX(sid), 0) FROM sessions");
        if (max.step()) newest = max.i64(0);
    }
    for (int64_t after = 0; after < newest; after += kRederiveBatch) {
        in_transaction(conn, [&] { return Query(conn, kSessionTermsSql).args(after, after + kRederiveBatch).run(); });
    }
}

struct MemoryText {
    int64_t key = 0;
    std::string text, app;
};

// Calls write(memory) for the memories `select` reads (after key, limit:
// row_key, text, app), a batch per transaction, in key order.
template <typename Write>
void for_each_memory_batch(Conn& conn, const char* select, Write&& write) {
    int64_t after = 0;
    for (bool more = true; more;) {
        more = in_transaction(conn, [&] {
            std::vector<MemoryText> rows;
            {
                Query read(conn, select);
                read.args(after, static_cast<int64_t>(kRederiveBatch));
                while (read.step())
                    rows.push_back(MemoryText{read.i64(0), read.text(1), read.text(2)});
            }
            for (const MemoryText& row : rows) write(row);
            if (!rows.empty()) after = rows.back().key;
            return rows.size() == static_cast<size_t>(kRederiveBatch);
        });
    }
}

void rederive_memories(Conn& conn) {
    for_each_memory_batch(conn, kMemoriesSql, [&](const MemoryText& row) {
        const int64_t key = row.key;
        const std::string& text = row.text;
        int64_t terms = 0;
        const std::string tokens = search_tokens::tokens_of(text, &terms);
        Query(conn, kSetMemoryTermsSql).args(tokens, terms, key).run();
    });
}

}  // namespace

void rederive_host_terms(Conn& conn) {
    rederive_events(conn);
    rederive_sessions(conn);
    rederive_memories(conn);
}

void rederive_memory_term_lists(Conn& conn) {
    for_each_memory_batch(conn, kUnlistedMemoriesSql, [&](const MemoryText& row) {
        int64_t length = 0;
        const std::string list = host::term_list(row.text, &length);
        Query(conn, kSetTermListSql).args(list, length, row.key).run();
        sqlcore::count_memory_terms(conn, row.app, list, +1);
    });
}

}  // namespace mnemo::mysql
