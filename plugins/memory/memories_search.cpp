#include "memories_search.h"

#include "memory_filter.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <unordered_set>

namespace mnemo::memory {

namespace {

// The term index of the filter's scope, or null when the scope holds nothing.
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
                           const host::Query& query) {
    host::Bm25Corpus corpus;
    corpus.documents = static_cast<double>(index.documents());
    corpus.total_length = static_cast<double>(index.length());
    for (const std::string& term : query.terms) {
        const MemoryPostings* postings = index.find(term);
        corpus.document_frequency.push_back(postings ? static_cast<double>(postings->size()) : 0);
    }
    memories.for_each_expired(filter.now_us, [&](const MemoryRec& row) {
        if (!in_scope(filter, row)) return;
        corpus.documents -= 1;
        corpus.total_length -= row.length;
        for (size_t t = 0; t < query.terms.size(); ++t)
            if (host::term_frequency(row.terms, query.terms[t]) > 0) corpus.document_frequency[t] -= 1;
    });
    return corpus;
}

bool ranks_before(const KeywordHit& a, const KeywordHit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.row->updated_at_us != b.row->updated_at_us) return a.row->updated_at_us > b.row->updated_at_us;
    return a.row->id > b.row->id;
}

// Where the memories that may hold an exact clause are: the postings of the
// rarest term of its interior whole words. *scan when the clause has no such
// word; *none when one of them is in no memory (then none holds the clause).
const MemoryPostings* clause_postings(const TermIndex& index, std::string_view clause, bool* scan, bool* none) {
    const MemoryPostings* best = nullptr;
    bool interior = false;
    host::for_each_word(clause, [&](size_t begin, size_t end) {
        if (*none || begin == 0 || end == clause.size()) return;
        host::for_each_term(clause.substr(begin, end - begin), [&](size_t, size_t, std::string_view term) {
            interior = true;
            const MemoryPostings* postings = index.find(std::string(term));
            if (!postings) {
                *none = true;
            } else if (!best || postings->size() < best->size()) {
                best = postings;
            }
        });
    });
    *scan = !interior;
    return best;
}

// A superset of the rows of the scope that match: each once, unordered
// (nullopt: every row of the scope may).
std::optional<std::vector<const MemoryRec*>> candidates(const TermIndex& index, const host::Query& query) {
    std::vector<const MemoryPostings*> lists;  // any: their union; all: the smallest
    bool none = false, scan = false;
    for (size_t t = 0; t < query.terms.size(); ++t) {
        // Match all narrows by the terms it asks for; one that only a clause gives may be cut from a longer word.
        if (query.match_all && !query.required[t]) continue;
        const MemoryPostings* postings = index.find(query.terms[t]);
        if (postings) lists.push_back(postings);
        if (!postings && query.match_all) none = true;
    }
    for (const std::string& clause : query.clauses) {
        bool clause_scan = false, clause_none = false;
        const MemoryPostings* postings = clause_postings(index, clause, &clause_scan, &clause_none);
        if (postings) lists.push_back(postings);
        if (clause_none && query.match_all) none = true;
        if (clause_scan && !query.match_all) scan = true;  // any: this clause alone may match anywhere
    }
    if (none) return std::vector<const MemoryRec*>{};
    if (query.match_all) {
        if (lists.empty()) return std::nullopt;
        lists = {*std::min_element(lists.begin(), lists.end(),
                                   [](const MemoryPostings* a, const MemoryPostings* b) { return a->size() < b->size(); })};
    } else if (scan) {
        return std::nullopt;
    }
    std::vector<const MemoryRec*> rows;
    for (const MemoryPostings* postings : lists)
        for (const auto& [row, count] : *postings) rows.push_back(row);
    if (lists.size() > 1) {
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    }
    return rows;
}

std::vector<KeywordHit> matching(MemoryStore& memories, const TermIndex& index, const mnemo_memory_filter& filter,
                                 const host::Query& query) {
    std::vector<KeywordHit> hits;
    std::vector<uint32_t> tf(query.terms.size());
    // The row's counted terms decide, as the host's rule does, without splitting its text again.
    auto consider = [&](const MemoryRec& row) {
        if (!passes(filter, row)) return;
        for (size_t t = 0; t < tf.size(); ++t) tf[t] = host::term_frequency(row.terms, query.terms[t]);
        if (host::matches_counts(query, tf, host::clauses_held(query, row.text))) hits.push_back(KeywordHit{&row, 0});
    };
    if (auto rows = candidates(index, query)) {
        for (const MemoryRec* row : *rows) consider(*row);
    } else {
        for_each_in_scope(memories, filter, consider);
    }
    return hits;
}

// MaxScore's walk (memories_search.h): the best `limit` of the memories
// holding any query term, scored exactly, without scoring those that can
// no longer be among them.
std::vector<KeywordHit> best_by_max_score(const TermIndex& index, const mnemo_memory_filter& filter,
                                          const host::Query& query, const host::Bm25Corpus& corpus, size_t limit) {
    const host::MaxScoreWalk walk(corpus);
    // Worst kept on top.
    std::priority_queue<KeywordHit, std::vector<KeywordHit>, decltype(&ranks_before)> best(&ranks_before);
    std::unordered_set<const MemoryRec*> scored;
    for (size_t i = 0; i < walk.rarest_first.size(); ++i) {
        if (best.size() == limit && best.top().relevance > walk.bound_from[i]) break;
        const MemoryPostings* postings = index.find(query.terms[walk.rarest_first[i]]);
        if (!postings) continue;
        for (const auto& [row, count] : *postings) {
            if (!scored.insert(row).second || !passes(filter, *row)) continue;
            KeywordHit hit{row, host::relevance(query, corpus, row->text, row->terms, row->length)};
            if (best.size() < limit) {
                best.push(hit);
            } else if (ranks_before(hit, best.top())) {
                best.pop();
                best.push(hit);
            }
        }
    }
    std::vector<KeywordHit> hits;
    for (; !best.empty(); best.pop()) hits.push_back(best.top());
    std::reverse(hits.begin(), hits.end());
    return hits;
}

// An app's question through its packed postings (recall_index.h): the
// same answer as best_by_max_score, walked document at a time.
std::vector<KeywordHit> app_best(MemoryStore& memories, const mnemo_memory_filter& filter, const host::Query& query,
                                 const host::Bm25Corpus& corpus, size_t limit) {
    const AppMemories* app = memories.find_app(view(filter.app));
    auto order_of = [&](int64_t key) -> std::optional<host::RecallIndex::Order> {
        const MemoryRec* row = memories.find_key(key);
        if (!row || !passes(filter, *row)) return std::nullopt;
        return host::RecallIndex::Order{row->updated_at_us, row->id};
    };
    std::vector<KeywordHit> hits;
    for (const host::RecallIndex::Scored& scored : app->recall.best(query, corpus, limit, order_of))
        hits.push_back(KeywordHit{memories.find_key(scored.key), scored.relevance});
    return hits;
}

}  // namespace

std::vector<KeywordHit> keyword_recall(MemoryStore& memories, const mnemo_memory_filter& filter, std::string_view q,
                                       int match, size_t limit) {
    const host::Query query = host::parse_query(q, match);
    const TermIndex* index = scope_index(memories, filter);
    if (query.kind != host::QueryKind::Terms || query.empty() || limit == 0 || !index) return {};
    const host::Bm25Corpus corpus = corpus_of(memories, *index, filter, query);
    if (query.clauses.empty() && !query.match_all) {
        if (!filter.user.ptr) return app_best(memories, filter, query, corpus, limit);
        return best_by_max_score(*index, filter, query, corpus, limit);
    }
    std::vector<KeywordHit> hits = matching(memories, *index, filter, query);
    for (KeywordHit& hit : hits)
        hit.relevance = host::relevance(query, corpus, hit.row->text, hit.row->terms, hit.row->length);
    const size_t kept = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), ranks_before);
    hits.resize(kept);
    return hits;
}

}  // namespace mnemo::memory
