// memories.h -- the long-term memories of the in-memory backend (docs/memories.md).
//
// This module owns the memory rows and every index over them: by key, by
// term per app and per user (memory_terms.h), by (app, user, id), by
// (namespace, folded text) for dedupe, by updated_at for pages, by expiry
// for the sweep, the pending set for the embedder, each app's fixed vector
// dimension, and the change feed (change_seq order, with removals kept until
// the sweep forgets them, which moves the horizon). Every change to a row
// goes through MemoryStore so that the indexes and the feed follow; the
// rules of each operation (retry, dedupe, TTL...) live in
// ops_memory_write.cpp and ops_memory_read.cpp, those of captured rows in
// captures.cpp. Captured rows (source set) are indexed by their source event
// instead of their folded text: they take no part in dedupe. Expired rows
// stay until the sweep removes them but are absent to every rule (live()).
#pragma once

#include "bm25.h"
#include "memory_values.h"
#include "memory_terms.h"
#include "recall_index.h"
#include "util.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mnemo::memory {

// The values both backends keep (memory_values.h), with this store's keys of the text.
struct MemoryRec : host::MemoryValues {
    std::string folded_text;
    std::vector<host::TermCount> terms;  // the text's host terms with their counts (bm25.h), for recall
    uint32_t length = 0;                 // its number of terms: BM25's document length

    void set_text(std::string_view new_text, std::string_view new_folded_text);
};

struct UserMemories {
    StringMap<MemoryRec*> by_id;                                      // every stored row, expired ones too
    std::unordered_multimap<std::string, MemoryRec*> by_text;         // namespace '\0' folded text
    std::map<std::pair<int64_t, std::string>, MemoryRec*> by_update;  // (updated_at, id)
    TermIndex terms;                                                  // the user's texts, for recall
    // Captured rows by (session, seq); a session id used again after a delete may repeat a pair.
    std::multimap<std::pair<std::string, int64_t>, MemoryRec*> by_source;
};

struct AppMemories {
    StringMap<UserMemories> users;
    int64_t dimension = 0;                 // fixed by the app's first stored vector; 0: none yet
    TermIndex terms;                       // the texts of all the app's users, for recall without a user
    host::RecallIndex recall;              // the same packed, for a question without a user (MaxScore)
    std::map<int64_t, MemoryRec*> by_key;  // every stored row, for export in key order
};

// A row of the change feed: a stored memory, or the removal of one.
struct FeedEntry {
    int64_t key = 0;
    MemoryRec* row = nullptr;  // null: removed
    std::string app, user;     // removals only
    int64_t removed_at_us = 0;
};

class MemoryStore {
public:
    AppMemories* find_app(std::string_view app);
    UserMemories* find_user(std::string_view app, std::string_view user);
    AppMemories& ensure_app(std::string_view app);
    MemoryRec* find_key(int64_t key);

    // The live row of (app, user, id), or null.
    MemoryRec* live_by_id(std::string_view app, std::string_view user, std::string_view id, int64_t now_us);
    // A live row of the user in the namespace with that folded text, or null.
    MemoryRec* live_by_text(std::string_view app, std::string_view user, std::string_view name_space,
                            std::string_view folded_text, int64_t now_us);

    // Stores a new row (key and change_seq assigned here) and returns it.
    MemoryRec& insert(std::unique_ptr<MemoryRec> row);
    // Changes a row through fn: the indexes follow and it moves to the feed's end.
    template <typename Fn>
    void modify(MemoryRec& row, Fn&& fn) {
        unindex(row);
        fn(row);
        index(row);
        to_feed_end(row);
    }
    // A new text for a row (within modify): the word indexes follow.
    void replace_text(MemoryRec& row, std::string_view text, std::string_view folded_text);
    // The row's vector fixes its app's dimension when none is fixed yet.
    void fix_dimension(const MemoryRec& row);
    // The dimension the app's vectors must have: `configured` (memory.dimensions) when
    // > 0, else the app's fixed one; 0: not fixed yet.
    int64_t wanted_dimension(std::string_view app, int64_t configured);
    // Calls fn(row) for every stored row expired at now_us (the sweep has not removed them yet).
    template <typename Fn>
    void for_each_expired(int64_t now_us, Fn&& fn) {
        for (auto it = expiring_.begin(); it != expiring_.end() && it->first <= now_us; ++it) fn(*find_key(it->second));
    }
    // Takes a row out at once; it enters the feed as removed.
    void remove(MemoryRec& row, int64_t removed_at_us);
    // Removes (app, user, id) when stored but expired, so the id may be created afresh.
    void drop_expired(std::string_view app, std::string_view user, std::string_view id, int64_t now_us);

    // Sweep parts: each handles at most limit rows and sets *hit when it had more.
    int64_t sweep_expired(int64_t now_us, int64_t limit, bool* hit);
    void forget_removals(int64_t before_us, int64_t limit, bool* hit);
    // Removes the rows captured from events of the session with seq >= from_seq, created at or
    // after created_since_us (the session's own, not those of an earlier session of its id).
    int64_t remove_captured(std::string_view app, std::string_view user, std::string_view session_id, int64_t from_seq,
                            int64_t created_since_us, int64_t now_us);
    // Removes every row of the user; returns how many.
    int64_t purge_user(std::string_view app, std::string_view user, int64_t now_us);

    const std::map<int64_t, FeedEntry>& feed() const { return feed_; }
    int64_t horizon() const { return horizon_; }
    const std::set<int64_t>& pending() const { return pending_; }
    StringMap<AppMemories>& apps() { return apps_; }

private:
    void index(MemoryRec& row);
    void unindex(MemoryRec& row);
    void to_feed_end(MemoryRec& row);
    UserMemories& user_of(const MemoryRec& row);

    StringMap<AppMemories> apps_;
    std::unordered_map<int64_t, std::unique_ptr<MemoryRec>> rows_;
    std::set<int64_t> pending_;                       // keys with status pending
    std::set<std::pair<int64_t, int64_t>> expiring_;  // (expires_at, key), expires_at > 0
    std::map<int64_t, FeedEntry> feed_;               // change_seq -> latest change of a key
    std::set<std::pair<int64_t, int64_t>> removals_;  // (removed_at, change_seq) of feed removals
    int64_t next_key_ = 1, last_seq_ = 0, horizon_ = 0;
};

using host::memory_view;

}  // namespace mnemo::memory
