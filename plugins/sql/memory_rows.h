// memory_rows.h -- the long-term memories of the SQL backends (docs/memories.md,
// mnemo_plugin.h "long-term memories") as rows: the memories table (row_key
// from AUTOINCREMENT / AUTO_INCREMENT, never reused), memory_removals (the
// feed's removals until the sweep forgets them), memory_apps (each app's
// fixed vector dimension) and memory_feed (one row: the last change_seq and
// the horizon). Every change to a memory goes through here so it takes the
// next change_seq from the FeedClock of its transaction; the rules of each
// operation live in ops_memories_write.cpp and ops_memories_read.cpp.
// Expired rows stay until the sweep removes them but are absent to every
// rule (live()).
#pragma once

#include "db.h"
#include "memory_values.h"
#include "memory_sql.h"
#include "output.h"
#include "rules.h"
#include "store_error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

// The values both backends keep (memory_values.h), with the text index's columns.
struct MemoryRow : host::MemoryValues {
    // The dedupe key; absent on a captured row, which takes no part in dedupe
    // until a write gives its text a folded form.
    std::optional<std::string> folded_text;
    int64_t word_count = 0;  // the number of host terms of text (BM25's length)
    // The host terms of text (term_list.h), written with it; not read back
    // with the row (absent: a row read from the table keeps its stored list).
    std::optional<std::string> terms;

    // A new text: its folded form, word count and terms follow.
    void set_text(std::string_view new_text, std::string_view new_folded_text);
    // The terms of text, counted now when set_text did not.
    const std::string& counted_terms();
};

// The row of a query selecting kMemoryColumns.
MemoryRow memory_row(const Query& query);

// The feed's counter, taken once per write transaction before any memory is
// read (locked until COMMIT where rows are locked, so daemons sharing the
// database assign change_seq in commit order). save() writes it back.
class FeedClock {
public:
    explicit FeedClock(Db& db);
    int64_t next() { return ++last_seq_; }
    int64_t horizon() const { return horizon_; }
    void forgot(int64_t change_seq);  // a removal at change_seq was forgotten
    void save();

private:
    Db& db_;
    int64_t last_seq_ = 0, horizon_ = 0, saved_seq_ = 0, saved_horizon_ = 0;
};

// The stored row of (app, user, id), expired or not.
std::optional<MemoryRow> stored_memory(Db& db, mnemo_str app, mnemo_str user, mnemo_str id);
std::optional<MemoryRow> live_memory(Db& db, mnemo_str app, mnemo_str user, mnemo_str id, int64_t now_us);
// A live memory of the user in the namespace with that folded text.
std::optional<MemoryRow> live_memory_by_text(Db& db, mnemo_str app, mnemo_str user, std::string_view name_space,
                                             std::string_view folded_text, int64_t now_us);
std::optional<MemoryRow> memory_by_key(Db& db, int64_t key);
// The rows of keys (a key without a row is absent), read together
// (for_each_row_in_list, db.h): a recall's hits, a statement each, cost the
// server backends a round trip per hit.
std::map<int64_t, MemoryRow> memories_by_keys(Db& db, std::vector<int64_t> keys);

// Stores a new row: its key and change_seq are set here.
void insert_memory(Db& db, FeedClock& clock, MemoryRow& row);
// Writes every changed column of a stored row; it moves to the feed's end.
void update_memory(Db& db, FeedClock& clock, MemoryRow& row, bool text_changed);
// Takes a row out; it enters the feed as removed at removed_at_us.
void remove_memory(Db& db, FeedClock& clock, const MemoryRow& row, int64_t removed_at_us);

// The app's fixed dimension, 0 while it has no vector.
int64_t app_dimension(Db& db, std::string_view app);
// The app's first vector fixes its dimension (in the caller's transaction).
void fix_dimension(Db& db, std::string_view app, size_t dims);
// memory_reembed to another model: the app's dimension becomes dims, whatever it was.
void set_dimension(Db& db, std::string_view app, int64_t dims);

// Removes every memory of the user, expired ones included; returns how many.
int64_t purge_user_memories(Db& db, mnemo_str app, mnemo_str user, int64_t now_us);
// The sweep's memory parts: expired memories (returned) and removals older
// than purge_before_us (0: none); more set when either had more than limit.
int64_t sweep_memories(Db& db, const mnemo_sweep_req& req, bool& more);

// INVALID unless limit >= 1, naming the operation.
void require_memory_limit(const char* operation, int64_t limit);
// NOT_FOUND naming the memory.
[[noreturn]] void throw_memory_not_found(const mnemo_memory_ref& ref);

using host::memory_view;
// Sends the row through out as via says, with its vector when with_vector.
void emit_memory(Output& out, const MemoryRow& row, bool with_vector, const MemoryVia& via = {});

}  // namespace mnemo::sqlcore
