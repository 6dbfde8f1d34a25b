// memories_search.h -- keyword recall over memories: the host's rules decide
// which memories match (mnemo_host.query_matches: any or all of the query's
// terms and exact clauses), bm25.h's relevance ranks them.
//
// A document is a memory's host terms; N, df and the average length are
// counted over the live memories of the filter's scope (its app and user, or
// the whole app when no user is named), so the other filters narrow the hits
// without changing their scores. Order: relevance desc, then updated_at
// desc, then id desc.
//
// Candidates come from the scope's inverted index (memory_terms.h): the
// union of the postings of the query's terms, and for each exact clause the
// postings of the rarest term of its interior whole words (a text holding
// the clause holds each of them as a whole word; the words at the clause's
// ends may be parts of longer words). A clause with no interior word
// (`user_id`, `"two words"`, CJK) walks the scope. With match all one
// necessary condition is enough: the rarest of those postings. Every
// candidate is verified by the host. Expired rows not yet swept are
// discounted from N, the total length and df by walking them (the sweep
// keeps them few).
//
// A query of terms alone under match any (a natural question) is answered
// by MaxScore's rule instead of scoring every memory holding a common word:
// the postings are walked rarest term first, each new memory scored
// exactly, and the walk stops before a term once the limit-th best score
// so far exceeds the most the remaining terms could give a memory holding
// none of the walked ones (the sum of their (k1 + 1) * idf): such a memory
// can no longer enter the answer, so the answer is the one scoring every
// match gives. Without a user it walks the app's packed postings
// (recall_index.h) document at a time instead, by the same rule.
#pragma once

#include "memories.h"

#include <vector>

namespace mnemo::memory {

struct KeywordHit {
    const MemoryRec* row = nullptr;
    double relevance = 0;
};

// Live memories passing the filter whose text matches q (match: enum
// mnemo_match), best first, at most limit.
std::vector<KeywordHit> keyword_recall(MemoryStore& memories, const mnemo_memory_filter& filter, std::string_view q,
                                       int match, size_t limit);

}  // namespace mnemo::memory
