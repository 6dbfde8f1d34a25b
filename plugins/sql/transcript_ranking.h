// transcript_ranking.h -- a natural question's answer from the app's packed
// transcripts (transcript_index.h, brought up to the request's snapshot by
// transcript_cache.h): the `limit` best sessions and every hit of theirs,
// exactly as search_hits.h ranks its candidates (the same BM25 over the
// same scope, the same sums), without reading a candidate row.
//
// It answers match any with terms, and with exact clauses that hold a
// whole word each (their holders are the events holding every such word,
// whose text, read back by key, is verified; a clause of no whole word,
// `nginx.conf`, or of CJK, would need every text read: the engine's index
// serves those, and match all, which reads few rows there). The scope's
// rows give N and
// the total length and which sessions pass the session filters; df is a
// walk of each term's postings (exact over the scope); then max_score.h's
// walk finds the best sessions, the threshold being the limit-th best
// session's best event (a session ranks by its best event, so an event
// below it changes nothing), each term bounded by its share for its
// largest count in its shortest holder; a second walk of the lists scores
// every match of the sessions that may answer (ties included). A clause's
// holders are a list of their own, each worth the corpus's bound (above
// any score of words), as bm25.h's relevance weighs them.
#pragma once

#include "host_services.h"
#include "search_hits.h"
#include "transcript_cache.h"

#include <vector>

namespace mnemo::sqlcore {

// Whether the packed transcripts can answer this query (clauses: with
// exact tokens, as dialect.h packed_clauses says).
bool ranks_from_index(const host::Query& query, bool clauses);

// Answers req from cache's packed transcripts when they can and when it
// costs less (false: the backend's own search must).
bool search_from_index(Db& db, TranscriptCache& cache, const mnemo_search_req& req, Output& out);

// The sessions that may answer (at least req.limit when as many match),
// each with every hit passing the filters; unordered.
std::vector<RankedSession> rank_from_index(Db& db, const TranscriptIndex& index, const std::vector<ScopeSession>& scope,
                                           const host::Query& query, const mnemo_search_req& req);

}  // namespace mnemo::sqlcore
