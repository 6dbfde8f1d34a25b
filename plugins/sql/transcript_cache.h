// transcript_cache.h -- each app's transcripts packed for questions
// (transcript_index.h), held by the store between requests and brought up
// to the request's snapshot before each question: the scope's session rows
// are read (they are needed anyway: BM25's N and total length, the session
// filters), and a session whose row no longer carries the numbers its
// events were read at is read again: only its events past the last seq
// held when the counts say nothing else changed (an append), else all of
// them (a rewind, a rewrite, an eviction). Many sessions to read (the first
// question, a restart of a busy app) are read in one pass over the scope's
// events. A session of the scope's app or user that left the scope
// (deleted, expired, purged) is forgotten. A daemon sharing the database
// follows the others' writes the same way, as they move the rows.
//
// Why: a question's common words are held by much of a large transcript;
// reading their holders back from the database and ranking them all costs
// a row each (seconds at a million events on a server), while MaxScore over
// packed lists scores a few. It costs memory: about 5 bytes per distinct
// term of each event, and 24 bytes per event.
//
// An import replacing a live session's event under the same seq may leave
// its numbers unchanged: the plugin forgets everything after each import
// (forget_all()); another daemon's import of that kind is followed only
// once the session is written again.
#pragma once

#include "db.h"
#include "rules.h"
#include "transcript_index.h"

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mnemo::sqlcore {

// A session of the request's scope as its row reads.
struct ScopeSession {
    int64_t sid = 0;
    std::string user;
    TranscriptIndex::Signature signature;
    int64_t updated_at_us = 0;
    std::string id;
    bool passes = false;  // through exclude_session and channel
};

class TranscriptCache {
public:
    // Runs fn(const TranscriptIndex&, const std::vector<ScopeSession>&) on
    // the app's index holding the scope's sessions as db's snapshot reads
    // them.
    template <typename Fn>
    void with_scope(Db& db, const mnemo_search_req& req, Fn&& fn) {
        const std::vector<ScopeSession> scope = read_scope(db, req);
        Entry& entry = entry_of(view(req.app));
        {
            std::shared_lock read(entry.lock);
            if (holds(entry.index, scope)) return fn(static_cast<const TranscriptIndex&>(entry.index), scope);
        }
        std::unique_lock write(entry.lock);
        catch_up(db, req, scope, entry.index);
        fn(static_cast<const TranscriptIndex&>(entry.index), scope);
    }

    // Whether the app's events, as last read, hold the terms fewer times
    // than per_session times the sessions held (dialect.h
    // rare_holders_per_session): then reading their holders through the
    // database's index costs less than reading the scope's session rows
    // (sqlite, a word in 1,000 of 1,000,000 events in 10,000 sessions:
    // 4.7 ms against 6.5 ms; on mysql the index costs far more: 214 ms
    // against 20 ms). False while nothing is held of the app.
    bool rare(std::string_view app, const std::vector<std::string>& terms, double per_session);

    // Drops what is held (read again on the next question).
    void forget_all();

private:
    struct Entry {
        std::shared_mutex lock;
        TranscriptIndex index;
    };

    static std::vector<ScopeSession> read_scope(Db& db, const mnemo_search_req& req);
    static bool holds(const TranscriptIndex& index, const std::vector<ScopeSession>& scope);
    static void catch_up(Db& db, const mnemo_search_req& req, const std::vector<ScopeSession>& scope,
                         TranscriptIndex& index);
    Entry& entry_of(std::string_view app);

    std::mutex entries_lock_;
    std::unordered_map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace mnemo::sqlcore
