#include "memories_search.h"

#include "memory_filter.h"

#include <algorithm>

namespace mnemo::memory {

namespace {

using host::RecallQuery;

uint32_t term_frequency(const MemoryRec& row, const std::string& word) {
    return host::term_frequency(row.terms, word);
}

bool holds_all(const MemoryRec& row, const std::vector<std::string>& words) {
    return std::all_of(words.begin(), words.end(), [&](const std::string& word) { return term_frequency(row, word); });
}

bool matches(const RecallQuery& query, const MemoryRec& row) {
    return query.exact ? host::matches(query.parsed, row.text) : holds_all(row, query.words);
}

// The word index of the filter's scope, or null when the scope holds nothing.
const TermIndex* scope_index(MemoryStore& memories, const mnemo_memory_filter& filter) {
    if (!filter.user.ptr) {
        const AppMemories* app = memories.find_app(view(filter.app));
        return app ? &app->terms : nullptr;
    }
    const UserMemories* user = memories.find_user(view(filter.app), view(filter.user));
    return user ? &user->terms : nullptr;
}

bool in_scope(const mnemo_memory_filter& filter, const MemoryRec& row) {
    return row.app == view(filter.app) && (!filter.user.ptr || row.user == view(filter.user));
}

// The index counts every stored row: expired ones not yet swept are taken back out.
host::Bm25Corpus corpus_of(MemoryStore& memories, const TermIndex& index, const mnemo_memory_filter& filter,
                           const RecallQuery& query) {
    host::Bm25Corpus corpus;
    corpus.documents = static_cast<double>(index.documents());
    corpus.total_words = static_cast<double>(index.words());
    for (const std::string& word : query.words) {
        const MemoryPostings* postings = index.find(word);
        corpus.document_frequency.push_back(postings ? static_cast<double>(postings->size()) : 0);
    }
    memories.for_each_expired(filter.now_us, [&](const MemoryRec& row) {
        if (!in_scope(filter, row)) return;
        corpus.documents -= 1;
        corpus.total_words -= row.word_count;
        for (size_t w = 0; w < query.words.size(); ++w)
            if (term_frequency(row, query.words[w]) > 0) corpus.document_frequency[w] -= 1;
    });
    return corpus;
}

bool ranks_before(const KeywordHit& a, const KeywordHit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.row->updated_at_us != b.row->updated_at_us) return a.row->updated_at_us > b.row->updated_at_us;
    return a.row->id > b.row->id;
}

// The postings of the rarest of words; null when some word is in no memory
// (then nothing matches), or when words is empty (then every memory may).
const MemoryPostings* rarest(const TermIndex& index, const std::vector<std::string>& words, bool* none_match) {
    const MemoryPostings* best = nullptr;
    for (const std::string& word : words) {
        const MemoryPostings* postings = index.find(word);
        if (!postings) {
            *none_match = true;
            return nullptr;
        }
        if (!best || postings->size() < best->size()) best = postings;
    }
    return best;
}

std::vector<KeywordHit> matching(MemoryStore& memories, const TermIndex& index, const mnemo_memory_filter& filter,
                                 const RecallQuery& query) {
    std::vector<KeywordHit> hits;
    auto consider = [&](const MemoryRec& row) {
        if (passes(filter, row) && matches(query, row)) hits.push_back(KeywordHit{&row, 0});
    };
    bool none_match = false;
    const MemoryPostings* postings = rarest(index, query.exact ? query.whole_words : query.words, &none_match);
    if (none_match) return hits;
    if (postings) {
        for (const auto& [row, count] : *postings) consider(*row);
    } else {
        for_each_in_scope(memories, filter, consider);
    }
    return hits;
}

}  // namespace

std::vector<KeywordHit> keyword_recall(MemoryStore& memories, const mnemo_memory_filter& filter, std::string_view q,
                                       size_t limit) {
    const RecallQuery query = host::read_recall_query(q);
    const TermIndex* index = scope_index(memories, filter);
    if (query.empty() || limit == 0 || !index) return {};
    std::vector<KeywordHit> hits = matching(memories, *index, filter, query);
    const host::Bm25Corpus corpus = corpus_of(memories, *index, filter, query);
    for (KeywordHit& hit : hits) hit.relevance = host::bm25(query, corpus, hit.row->terms, hit.row->word_count);
    const size_t kept = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), ranks_before);
    hits.resize(kept);
    return hits;
}

}  // namespace mnemo::memory
