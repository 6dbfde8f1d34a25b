// memories_search.h -- keyword recall over memories: the transcript search
// rules decide which memories match (keyword_recall.h), BM25 ranks them.
//
// BM25 with k1 1.2 and b 0.75; a document is a memory's words, N, df and the
// average length are counted over the live memories of the filter's scope
// (its app and user, or the whole app when no user is named), so the other
// filters narrow the hits without changing their scores. An exact query is
// weighed by its words. Ties: updated_at desc, then id desc.
//
// Candidates come from the scope's inverted index (memory_terms.h): a word
// query walks the postings of its rarest word; an exact query those of its
// rarest whole word, verifying the text; only an exact query with no whole
// word (`w12 w4`, `(home`) walks the scope. Expired rows not yet swept are
// discounted from N and df by walking them (the sweep keeps them few).
#pragma once

#include "memories.h"

#include <vector>

namespace mnemo::memory {

struct KeywordHit {
    const MemoryRec* row = nullptr;
    double relevance = 0;
};

// Live memories passing the filter whose text matches q, best first, at most limit.
std::vector<KeywordHit> keyword_recall(MemoryStore& memories, const mnemo_memory_filter& filter, std::string_view q,
                                       size_t limit);

}  // namespace mnemo::memory
