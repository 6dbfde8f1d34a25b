// search_ranking.h -- which events of an app match a search and how relevant
// each is (mnemo_search_req's contract): the host's match (any or all of the
// query's terms and exact clauses) and bm25.h's relevance over the
// request's scope, for the filed events (search_index.h) and the pending
// tail (search_indexer.h) alike.
//
// The scope is the live visible events with a search text of the request's
// user (of the app without one), before the other filters: N and the total
// length sum the filed documents and lengths of the scope's visible sessions
// (SearchIndex::sessions(), so dead ordinals and deleted or expired sessions
// never count) and those of the tail; df counts each query term's postings,
// skipping dead ordinals and sessions out of scope, and adds the tail's.
// The tail's texts are split on the fly (they are few: the indexer keeps
// them bounded); a filed event's counts and length come from the index, so
// no filed text is split again. Exact clauses are verified against the text
// of their candidates only.
//
// Candidates: match any merges the terms' postings and the events verified
// to hold a clause by ordinal, counting df as it goes (each event is met
// once, with every count it has, and scored once the corpus is whole);
// match all counts df first, then walks the rarest term's postings and
// looks the event up in the others, verifying the clauses on what is left
// (or, with clauses alone, verifies them on the rarest clause's
// candidates). Every posting of the query's terms is walked for df anyway,
// exactly, so top-k pruning (MaxScore, WAND) could only spare the scoring,
// which is arithmetic on counts already at hand; and a session's hits may
// rank far below the other sessions' best, so a pruning threshold would not
// hold for them. There is none.
#pragma once

#include "host_services.h"
#include "memory_store.h"

#include <unordered_map>
#include <vector>

namespace mnemo::memory {

// The visible event of session with seq, or null when it is gone.
const EventRec* visible_event(const SessionRec& session, int64_t seq);

// What the request's user and session filters let through, per session.
class SessionFilter {
public:
    explicit SessionFilter(const mnemo_search_req& req) : req_(req) {}
    const mnemo_search_req& req() const { return req_; }
    // In the request's scope: visible, and the user's when one is named.
    // BM25's statistics count the scope.
    bool in_scope(const SessionRec& session) const;
    // In scope and through the other session filters (exclude_session, channel).
    bool passes(const SessionRec& session);

private:
    bool on_channel(const SessionRec& session) const;

    const mnemo_search_req& req_;
    std::unordered_map<const SessionRec*, bool> channel_memo_;  // the metadata is parsed once per session
};

// One matching event with its relevance (bm25.h: higher is better).
struct ScoredEvent {
    double relevance = 0;
    const SessionRec* session = nullptr;
    int64_t seq = 0;
};

// The events of the view's app that match query in sessions passing the
// session filters (the role filter is the caller's), each once, unordered.
std::vector<ScoredEvent> score_events(const SearchIndexer::View& view, const host::Query& query,
                                      SessionFilter& sessions);

}  // namespace mnemo::memory
