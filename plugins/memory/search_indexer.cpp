#include "search_indexer.h"

#include "memory_store.h"

#include <algorithm>

namespace mnemo::memory {
namespace {

// Calls fn(item) for each item of batch neither filed nor cancelled, until
// fn returns false; false then.
template <typename Batch, typename Fn>
bool for_each_pending(Batch& batch, Fn&& fn) {
    for (size_t i = batch.filed; i < batch.items.size(); ++i) {
        if (!batch.items[i].cancelled && !fn(batch.items[i])) return false;
    }
    return true;
}

}  // namespace

void SearchIndexer::Batch::clear() {
    items.clear();
    text.clear();
    filed = 0;
}

void SearchIndexer::Batch::split(TermList& terms, size_t begin, size_t end) const {
    terms.clear();
    for (size_t i = begin; i < end; ++i) {
        const size_t from = text_begin(i);
        terms.add_text(std::string_view(text).substr(from, items[i].text_end - from));
    }
}

void SearchIndexer::Batch::drop_filed() {
    const size_t cut = text_begin(filed);
    items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(filed));
    for (Pending& item : items) item.text_end -= cut;
    text.erase(0, cut);
    filed = 0;
}

SearchIndexer::~SearchIndexer() {
    stop();
}

void SearchIndexer::start(bool hold) {
    hold_ = hold;
    thread_ = std::thread([this] { run(); });
}

void SearchIndexer::stop() {
    {
        std::lock_guard lock(pending_mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void SearchIndexer::run() {
    for (;;) {
        {
            std::unique_lock pending(pending_mutex_);
            idle_ = true;
            wake_.wait(pending, [&] { return stopping_ || (!hold_ && !queued_.items.empty()); });
            idle_ = false;
            if (stopping_) return;
        }
        {
            std::unique_lock index(index_mutex_);
            std::lock_guard pending(pending_mutex_);
            std::swap(queued_, taken_);
        }
        file_taken();
        std::unique_lock pending(pending_mutex_);
        if (wake_.wait_for(pending, kGather, [&] { return stopping_.load(); })) return;
    }
}

// Splits the batch's texts with no lock held (only this thread changes the
// batch; removals set cancelled flags in it), then files it a slice at a
// time under the index lock alone, so writers queue meanwhile.
void SearchIndexer::file_taken() {
    const size_t first = taken_.filed;  // back-pressure may have filed some while they were queued
    taken_.split(thread_terms_, first, taken_.items.size());
    while (!taken_.items.empty()) {
        std::unique_lock index(index_mutex_);
        if (stopping_) return;
        file(taken_, taken_.filed, std::min(taken_.items.size(), taken_.filed + kSlice), thread_terms_, first);
        if (taken_.filed == taken_.items.size()) taken_.clear();
    }
}

// Back-pressure: the oldest kSlice events of the queue, by the write that
// queued one too many (the thread's batch is not touched: it files that
// itself). Filed ones are dropped once they are half the queue.
void SearchIndexer::file_queued() {
    std::unique_lock index(index_mutex_);
    std::lock_guard pending(pending_mutex_);
    const size_t begin = queued_.filed, end = std::min(queued_.items.size(), begin + kSlice);
    queued_.split(write_terms_, begin, end);
    file(queued_, begin, end, write_terms_, begin);
    if (queued_.filed * 2 >= queued_.items.size()) queued_.drop_filed();
}

// With the index lock held (and the pending lock for queued_): an item not
// cancelled is a live event, whose ordinal can be written (its removal would
// have had to cancel it first, under the index lock). terms holds the texts
// of the batch from item `first` on.
void SearchIndexer::file(Batch& batch, size_t begin, size_t end, const TermList& terms, size_t first) {
    for (size_t i = begin; i < end; ++i) {
        const Pending& item = batch.items[i];
        if (!item.cancelled) item.app->search.add(item.key, item.ordinal, terms, i - first);
    }
    batch.filed = end;
}

void SearchIndexer::add(AppRec& app, const SessionRec& session, const EventRec& event) {
    bool full = false;
    {
        std::lock_guard lock(pending_mutex_);
        queued_.text.append(event.search_text());
        queued_.items.push_back(
            Pending{&app, EventKey{&session, event.seq()}, event.search_ordinal_slot(), queued_.text.size(), false});
        full = queued_.items.size() - queued_.filed > kMaxPending || queued_.waiting_bytes() > kMaxPendingBytes;
        if (!full && idle_ && !hold_) {
            idle_ = false;
            wake_.notify_one();
        }
    }
    if (full) file_queued();
}

// The visible events [from, to) of session: each filed one is unfiled, and
// as many pending items of that seq range as there were unfiled events are
// cancelled (an event is pending iff it is visible and not filed).
void SearchIndexer::unfile(AppRec& app, const SessionRec& session, size_t from, size_t to) {
    if (from >= to) return;
    const auto& visible = session.events.visible();
    std::unique_lock index(index_mutex_);
    size_t pending = 0;
    for (size_t i = from; i < to; ++i) {
        if (visible[i].search_ordinal() == EventRec::kNotIndexed)
            ++pending;
        else
            app.search.remove(session, visible[i]);
    }
    if (pending == 0) return;
    const int64_t first = visible[from].seq(), last = visible[to - 1].seq();
    auto cancel = [&](Pending& item) {
        if (item.key.session != &session || item.key.seq < first || item.key.seq > last) return true;
        item.cancelled = true;
        return --pending > 0;
    };
    std::lock_guard lock(pending_mutex_);
    if (for_each_pending(taken_, cancel)) for_each_pending(queued_, cancel);
}

void SearchIndexer::remove(AppRec& app, const SessionRec& session, const EventRec& event) {
    const size_t at = session.events.first_after(event.seq() - 1);
    unfile(app, session, at, at + 1);
}

void SearchIndexer::remove_from(AppRec& app, const SessionRec& session, size_t from) {
    unfile(app, session, from, session.events.visible().size());
}

void SearchIndexer::remove_session(AppRec& app, const SessionRec& session) {
    unfile(app, session, 0, session.events.visible().size());
}

int64_t SearchIndexer::evict(AppRec& app, SessionRec& session, int64_t limit) {
    if (limit > 0 && session.events.visible_count() > limit)
        unfile(app, session, 0, static_cast<size_t>(session.events.visible_count() - limit));
    return session.events.evict_beyond(limit);
}

SearchIndexer::View SearchIndexer::view(const AppRec& app) const {
    View view{std::shared_lock(index_mutex_), app.search, {}};
    auto add_tail = [&](const Pending& item) {
        if (item.app == &app) view.tail.push_back(item.key);
        return true;
    };
    for_each_pending(taken_, add_tail);
    std::lock_guard lock(pending_mutex_);
    for_each_pending(queued_, add_tail);
    return view;
}

}  // namespace mnemo::memory
