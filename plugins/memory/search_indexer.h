// search_indexer.h -- filing events in the search index off the request
// path: the memory backend's indexer thread, the pending tail (events made
// visible but not yet in their app's SearchIndex), and the lock every
// SearchIndex of the store lives behind.
//
// Why: splitting, folding, stemming and filing an event's words cost an
// append more than storing it, on the event loop (the backend is
// non-blocking). A write now hands each event it makes visible to the
// indexer (its key, where its ordinal lives, and a copy of its search text,
// pushed under a short lock) and returns. The thread takes everything
// queued, splits it outside every lock, and files it kSlice events at a time
// under the index lock alone (never the store's, and not the pending lock
// writers queue under); then it lets kGather pass so that the next batch
// gathers. Searches read an app's index and its pending tail together
// (view()), so an event is found the moment its write is answered
// (docs/api.md: searchable as soon as its response is sent).
//
// Every event handed over is in exactly one place: pending (queued, or taken
// by the thread and not filed yet), filed (its ordinal set in the index), or
// cancelled. The removals (eviction, rewind and rewrite, session purge or
// replacement, user purge, an import over an event) unfile a filed event and
// cancel a pending one, so it is never filed and no search sees it, before
// the event is freed: the thread only ever writes the ordinal of a live event
// and reads no session, only its own copies of the texts.
//
// Back-pressure: while more than kMaxPending events (or kMaxPendingBytes of
// text) wait in the queue, each write that queues one more files the oldest
// kSlice itself, so the tail a search scans and the memory the copies hold
// stay bounded when writers outrun the thread, and no one write pays for the
// whole queue.
//
// Lock order: Store::mutex, then the index lock, then the pending lock. The
// writes call add and the removals holding the store's lock exclusively;
// a search holds it shared across view() and its reads of the events the
// view names. The thread never takes the store's lock.
//
// Stopping (close, SIGTERM's drain): the thread ends after the slice it is
// filing; what is still pending is dropped (the store goes with it: the
// backend keeps nothing past the process).
#pragma once

#include "search_index.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

namespace mnemo::memory {

struct AppRec;

class SearchIndexer {
public:
    // Queued events (or bytes of their texts) past which a write files the
    // queue itself.
    static constexpr size_t kMaxPending = 4096;
    static constexpr size_t kMaxPendingBytes = size_t{16} << 20;
    // Events filed per hold of the index lock: a search or a removal waits
    // for one slice at most.
    static constexpr size_t kSlice = 128;
    // The thread's pause after a batch, so the next one gathers events
    // instead of waking it once per append.
    static constexpr std::chrono::milliseconds kGather{1};
    // Tests only: set to 1 in the environment when the plugin opens, the
    // thread files nothing, so tests can hold events in the pending tail
    // (back-pressure past kMaxPending still files them).
    static constexpr const char* kHoldEnv = "MNEMO_MEMORY_TEST_HOLD_INDEXING";

    SearchIndexer() = default;
    ~SearchIndexer();  // stop()
    SearchIndexer(const SearchIndexer&) = delete;
    SearchIndexer& operator=(const SearchIndexer&) = delete;

    // Starts the thread (open); throws std::system_error when it cannot.
    void start(bool hold);
    void stop();

    // With the store's lock held exclusively. add: the event was just made
    // visible in session of app. The removals, before the events leave the
    // visible ones: one event, those from index `from` on, all of them, and
    // those an eviction to `limit` drops (then evicts them; 0: unlimited).
    void add(AppRec& app, const SessionRec& session, const EventRec& event);
    void remove(AppRec& app, const SessionRec& session, const EventRec& event);
    void remove_from(AppRec& app, const SessionRec& session, size_t from);
    void remove_session(AppRec& app, const SessionRec& session);
    int64_t evict(AppRec& app, SessionRec& session, int64_t limit);

    // An app's index with its pending tail, under the index lock (held
    // shared until the view goes). With the store's lock held shared.
    struct View {
        std::shared_lock<std::shared_mutex> lock;
        const SearchIndex& index;
        std::vector<EventKey> tail;  // in no index yet, in no order
    };
    View view(const AppRec& app) const;

private:
    struct Pending {
        AppRec* app = nullptr;
        EventKey key;
        uint32_t* ordinal = nullptr;  // the event's (EventRec::search_ordinal_slot)
        size_t text_end = 0;          // its search text: text[previous text_end, text_end)
        bool cancelled = false;
    };
    struct Batch {
        std::vector<Pending> items;
        std::string text;
        size_t filed = 0;  // items[0, filed) are filed or cancelled
        void clear();
        size_t text_begin(size_t item) const { return item == 0 ? 0 : items[item - 1].text_end; }
        size_t waiting_bytes() const { return text.size() - text_begin(filed); }
        // terms holds the texts of items [begin, end), in order.
        void split(TermList& terms, size_t begin, size_t end) const;
        // Drops items[0, filed) and their texts.
        void drop_filed();
    };

    void run();
    void file_taken();
    void file_queued();
    void file(Batch& batch, size_t begin, size_t end, const TermList& terms, size_t first);
    void unfile(AppRec& app, const SessionRec& session, size_t from, size_t to);

    // Guards every app's SearchIndex and taken_ (the thread reads what it
    // swapped in without it: only cancelled flags change there meanwhile).
    mutable std::shared_mutex index_mutex_;
    mutable std::mutex pending_mutex_;  // queued_, idle_, stopping_'s changes
    std::condition_variable wake_;
    Batch queued_;           // handed over by writers
    Batch taken_;            // the thread's batch
    TermList thread_terms_;  // the thread's, outside every lock
    TermList write_terms_;   // back-pressure's, under the store's lock
    bool hold_ = false, idle_ = false;
    std::atomic<bool> stopping_ = false;  // also read between slices
    std::thread thread_;
};

}  // namespace mnemo::memory
