// recall_cache.h -- the packed postings (host/recall_index.h) of each app
// asked a question without a user, held by the store between requests and
// brought up to date from the memory change feed (memory_rows.h) before
// each such question: the rows changed and removed after the last
// change_seq it applied. A daemon sharing the database follows the others'
// writes the same way. It is built on the first question from the app's
// term lists (memories.terms), and again when the sweep has forgotten
// removals it did not apply (the feed's horizon passed its cursor).
//
// Why: an app-wide question's common words are held by much of the app;
// reading their holders from the database, even through an index, costs
// a row each, while MaxScore over packed lists scores a few of them.
// It costs memory: a few tens of bytes per memory and per term it holds.
// BM25's statistics still come from the database (memory_stats.h).
#pragma once

#include "db.h"

#include "recall_index.h"

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::sqlcore {

class RecallCache {
public:
    // What a question needs of a memory besides its terms.
    struct Doc {
        int64_t updated_at_us = 0;
        int64_t expires_at_us = 0;
        std::string id;
    };
    struct App {
        host::RecallIndex index;
        std::unordered_map<int64_t, Doc> docs;  // by row key
    };

    // Runs fn(const App&) on app's postings, brought up to db's snapshot
    // first; other questions may read them meanwhile, not change them.
    template <typename Fn>
    void with_app(Db& db, std::string_view app, Fn&& fn) {
        Entry& entry = entry_of(app);
        {
            std::unique_lock write(entry.lock);
            catch_up(db, app, entry);
        }
        std::shared_lock read(entry.lock);
        fn(static_cast<const App&>(entry.app));
    }

private:
    struct Entry {
        std::shared_mutex lock;
        App app;
        bool built = false;
        int64_t cursor = 0;  // the last change_seq applied
    };

    Entry& entry_of(std::string_view app);
    static void catch_up(Db& db, std::string_view app, Entry& entry);
    static void build(Db& db, std::string_view app, Entry& entry);
    static void apply_changes(Db& db, std::string_view app, Entry& entry);

    std::mutex entries_lock_;
    std::unordered_map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace mnemo::sqlcore
