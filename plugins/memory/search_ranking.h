// search_ranking.h -- which events of an app match a search and how relevant
// each is (mnemo_search_req's contract): the host's match (any or all of the
// query's terms and exact clauses) and bm25.h's relevance over the
// request's scope, for the filed events (search_index.h) and the pending
// tail (search_indexer.h) alike.
//
// The scope is the live visible events of the request's user (of the app
// without one), before the other filters, an event without a search text a
// document of no words (as the SQL backends count their sessions'
// event_count): N and the total length sum the filed events and lengths of
// the scope's visible sessions
// (SearchIndex::sessions(), so dead ordinals and deleted or expired sessions
// never count) and those of the tail; df counts each query term's postings,
// skipping dead ordinals and sessions out of scope, and adds the tail's.
// The tail's texts are split on the fly (they are few: the indexer keeps
// them bounded); a filed event's counts and length come from the index, so
// no filed text is split again. Exact clauses are verified against the text
// of their candidates only.
//
// Candidates: match all counts df first, then walks the rarest term's
// postings and looks the event up in the others, verifying the clauses on
// what is left (or, with clauses alone, verifies them on the rarest
// clause's candidates). Match any, for a search's answer, counts df by a
// walk of each term's postings (exact over the scope, every posting read
// once, nothing scored), then finds the `limit` best sessions by
// max_score.h's walk over the term and clause lists, each term bounded by
// its share for its largest count in its shortest holder: a session ranks
// by its best event, so the threshold is the limit-th best session's best
// event, and an event below it is skipped unscored. A second walk of the
// lists keeps the postings of the sessions that answer, scoring every
// match of theirs (their hits).
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

// The matching events that decide the `limit` best sessions (by their best
// event passing the role filter): every match of each session that may
// rank among them, and some of other sessions (each ranking below them).
// Each event once, unordered; the role filter is the caller's, which picks
// the sessions and their hits from these. Match all: every match.
std::vector<ScoredEvent> score_best_sessions(const SearchIndexer::View& view, const host::Query& query,
                                             SessionFilter& sessions, size_t limit);

}  // namespace mnemo::memory
