#include "recall_cache.h"

#include "rules.h"
#include "term_list.h"

namespace mnemo::sqlcore {
namespace {

constexpr const char* kRecallColumns = "SELECT row_key, id, updated_at, expires_at, terms FROM memories ";

// The term list's distinct terms with their counts, sorted (bm25.h's TermCount).
std::vector<host::TermCount> counted(std::string_view list, uint32_t* length) {
    std::vector<std::string_view> entries;
    host::for_each_listed_term(list, [&](std::string_view term) { entries.push_back(term); });
    *length = static_cast<uint32_t>(entries.size());
    return host::counts_of(std::move(entries));
}

// Puts the memory a query selecting kRecallColumns stands on.
void put_row(const Query& row, RecallCache::App& app) {
    const int64_t key = row.i64(0);
    // Only a memory written before term lists has none, and questions wait for those (memory_lists_complete).
    if (!row.str(4).ptr) return;
    uint32_t length = 0;
    const std::vector<host::TermCount> terms = counted(view(row.str(4)), &length);
    app.index.put(key, terms, length);
    app.docs[key] = RecallCache::Doc{row.i64(2), row.i64(3), row.text(1)};
}

}  // namespace

RecallCache::Entry& RecallCache::entry_of(std::string_view app) {
    std::lock_guard guard(entries_lock_);
    auto it = entries_.find(std::string(app));
    if (it == entries_.end()) it = entries_.emplace(std::string(app), std::make_unique<Entry>()).first;
    return *it->second;
}

void RecallCache::catch_up(Db& db, std::string_view app, Entry& entry) {
    Query feed(db, "SELECT last_seq, horizon FROM memory_feed WHERE id = 1");
    if (!feed.step()) return;
    const int64_t last_seq = feed.i64(0), horizon = feed.i64(1);
    // A reader of an older snapshot than the last catch-up's has nothing to add.
    if (entry.built && last_seq <= entry.cursor) return;
    if (!entry.built || horizon > entry.cursor) {
        build(db, app, entry);
    } else {
        apply_changes(db, app, entry);
    }
    entry.built = true;
    entry.cursor = last_seq;
}

void RecallCache::build(Db& db, std::string_view app, Entry& entry) {
    entry.app = App{};
    Query rows(db, std::string(kRecallColumns) + "WHERE app = ?");
    rows.args(app);
    while (rows.step()) put_row(rows, entry.app);
}

void RecallCache::apply_changes(Db& db, std::string_view app, Entry& entry) {
    {
        Query rows(db, std::string(kRecallColumns) + "WHERE change_seq > ? AND app = ?");
        rows.args(entry.cursor, app);
        while (rows.step()) put_row(rows, entry.app);
    }
    Query removals(db, "SELECT row_key FROM memory_removals WHERE change_seq > ? AND app = ?");
    removals.args(entry.cursor, app);
    while (removals.step()) {
        entry.app.index.erase(removals.i64(0));
        entry.app.docs.erase(removals.i64(0));
    }
}

}  // namespace mnemo::sqlcore
