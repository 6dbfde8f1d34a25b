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

void SearchIndexer::Batch::split(TermList& terms) const {
    terms.clear();
    size_t begin = 0;
    for (const Pending& item : items) {
        terms.add_text(std::string_view(text).substr(begin, item.text_end - begin));
        begin = item.text_end;
    }
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
    taken_.split(thread_terms_);
    for (size_t from = 0; from < taken_.items.size(); from += kSlice) {
        std::unique_lock index(index_mutex_);
        if (stopping_) return;
        file(taken_, from, std::min(taken_.items.size(), from + kSlice), thread_terms_);
        if (taken_.filed == taken_.items.size()) taken_.clear();
    }
}

// Back-pressure: every queued event, by the write that queued one too many
// (the thread's batch is not touched: it files that itself).
void SearchIndexer::file_queued() {
    std::unique_lock index(index_mutex_);
    std::lock_guard pending(pending_mutex_);
    queued_.split(write_terms_);
    file(queued_, 0, queued_.items.size(), write_terms_);
    queued_.clear();
}

// With the index lock held (and the pending lock for queued_): an item not
// cancelled is a live event, whose ordinal can be written (its removal would
// have had to cancel it first, under the index lock).
void SearchIndexer::file(Batch& batch, size_t begin, size_t end, const TermList& terms) {
    for (size_t i = begin; i < end; ++i) {
        const Pending& item = batch.items[i];
        if (!item.cancelled) item.app->search.add(item.key, item.ordinal, terms, i);
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
        full = queued_.items.size() > kMaxPending || queued_.text.size() > kMaxPendingBytes;
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
