// The packed postings of app-wide recall (plugins/host/recall_index.h):
// MaxScore's answer is the one scoring every match gives (the same keys in
// the same order with the same numbers), over random corpora whose term
// frequencies follow Zipf's law, with documents replaced and removed (dead
// slots, then packing), ties of score and time, and documents the caller
// leaves out.
#include "recall_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace mnemo::memory_test {
namespace {

using host::RecallIndex;
using host::TermCount;

struct Doc {
    std::vector<TermCount> terms;
    uint32_t length = 0;
    int64_t updated_at = 0;
    std::string id;
};

std::string term_name(size_t rank) { return "t" + std::to_string(rank); }

// A document of 1-12 terms drawn by Zipf's law over `vocabulary` terms.
Doc random_doc(std::mt19937& rng, const std::discrete_distribution<size_t>& zipf, int64_t key) {
    std::map<std::string, uint32_t> counts;
    Doc doc;
    doc.length = std::uniform_int_distribution<uint32_t>(1, 12)(rng);
    auto draw = zipf;
    for (uint32_t i = 0; i < doc.length; ++i) counts[term_name(draw(rng))] += 1;
    doc.terms.assign(counts.begin(), counts.end());
    doc.updated_at = std::uniform_int_distribution<int64_t>(0, 5)(rng);  // many ties, which the id breaks
    doc.id = "m" + std::to_string(key);
    return doc;
}

host::Bm25Corpus corpus_of(const std::map<int64_t, Doc>& docs, const host::Query& query) {
    host::Bm25Corpus corpus;
    corpus.document_frequency.assign(query.terms.size(), 0);
    for (const auto& [key, doc] : docs) {
        corpus.documents += 1;
        corpus.total_length += doc.length;
        for (size_t t = 0; t < query.terms.size(); ++t)
            if (host::term_frequency(doc.terms, query.terms[t]) > 0) corpus.document_frequency[t] += 1;
    }
    return corpus;
}

struct Expected {
    int64_t key;
    double relevance;
    int64_t updated_at;
    std::string id;
};

// Every document holding a term scored by bm25.h, sorted, cut at limit.
std::vector<Expected> score_every_match(const std::map<int64_t, Doc>& docs, const host::Query& query,
                                        const host::Bm25Corpus& corpus, size_t limit, int64_t left_out_mod) {
    std::vector<Expected> all;
    for (const auto& [key, doc] : docs) {
        if (key % left_out_mod == 0) continue;
        bool holds = false;
        for (const std::string& term : query.terms) holds = holds || host::term_frequency(doc.terms, term) > 0;
        if (holds) all.push_back(Expected{key, host::bm25(query, corpus, doc.terms, doc.length), doc.updated_at, doc.id});
    }
    std::sort(all.begin(), all.end(), [](const Expected& a, const Expected& b) {
        if (a.relevance != b.relevance) return a.relevance > b.relevance;
        if (a.updated_at != b.updated_at) return a.updated_at > b.updated_at;
        return a.id > b.id;
    });
    if (all.size() > limit) all.resize(limit);
    return all;
}

void expect_same_answers(uint32_t seed, size_t vocabulary, size_t documents, size_t churn) {
    std::mt19937 rng(seed);
    std::vector<double> weights;
    for (size_t r = 1; r <= vocabulary; ++r) weights.push_back(1.0 / static_cast<double>(r));
    const std::discrete_distribution<size_t> zipf(weights.begin(), weights.end());
    RecallIndex index;
    std::map<int64_t, Doc> docs;
    int64_t next_key = 1;
    for (size_t i = 0; i < documents; ++i) {
        Doc doc = random_doc(rng, zipf, next_key);
        index.put(next_key, doc.terms, doc.length);
        docs.emplace(next_key++, std::move(doc));
    }
    // Replace and remove at random: dead slots, and packing once they outnumber the live ones.
    for (size_t i = 0; i < churn && !docs.empty(); ++i) {
        auto it = std::next(docs.begin(), std::uniform_int_distribution<ptrdiff_t>(
                                              0, static_cast<ptrdiff_t>(docs.size()) - 1)(rng));
        if (rng() % 3 == 0) {
            Doc doc = random_doc(rng, zipf, it->first);
            index.put(it->first, doc.terms, doc.length);
            it->second = std::move(doc);
        } else {
            index.erase(it->first);
            docs.erase(it);
        }
    }
    ASSERT_EQ(index.size(), docs.size());
    for (int q = 0; q < 60; ++q) {
        host::Query query;
        query.kind = host::QueryKind::Terms;
        const size_t n_terms = std::uniform_int_distribution<size_t>(1, 6)(rng);
        auto draw = zipf;
        for (size_t t = 0; t < n_terms; ++t) {
            std::string term = q % 5 == 0 && t == 0 ? "absent" : term_name(draw(rng));
            if (std::find(query.terms.begin(), query.terms.end(), term) != query.terms.end()) continue;
            query.terms.push_back(term);
            query.required.push_back(true);
        }
        const size_t limit = std::uniform_int_distribution<size_t>(1, 25)(rng);
        const int64_t left_out_mod = q % 2 == 0 ? 7 : 1 << 30;
        const host::Bm25Corpus corpus = corpus_of(docs, query);
        auto order_of = [&](int64_t key) -> std::optional<RecallIndex::Order> {
            if (key % left_out_mod == 0) return std::nullopt;
            const Doc& doc = docs.at(key);
            return RecallIndex::Order{doc.updated_at, doc.id};
        };
        const std::vector<RecallIndex::Scored> got = index.best(query, corpus, limit, order_of);
        const std::vector<Expected> want = score_every_match(docs, query, corpus, limit, left_out_mod);
        ASSERT_EQ(got.size(), want.size()) << "seed " << seed << " query " << q;
        for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].key, want[i].key) << "seed " << seed << " query " << q << " rank " << i;
            EXPECT_EQ(got[i].relevance, want[i].relevance) << "seed " << seed << " query " << q << " rank " << i;
        }
    }
}

TEST(RecallIndexTest, MaxScoreAnswersWhatScoringEveryMatchAnswers) {
    for (uint32_t seed = 1; seed <= 6; ++seed) expect_same_answers(seed, 40, 3000, 0);
}

TEST(RecallIndexTest, ReplacedAndRemovedDocumentsLeaveNoTrace) {
    // 3,000 documents, then 4,000 changes: most removed, so the dead slots outnumber the live ones and pack.
    for (uint32_t seed = 11; seed <= 14; ++seed) expect_same_answers(seed, 60, 3000, 4000);
}

TEST(RecallIndexTest, ALargeVocabularyWithLongTail) {
    expect_same_answers(21, 2000, 5000, 500);
}

TEST(RecallIndexTest, AnEmptyIndexAndAZeroLimitAnswerNothing) {
    RecallIndex index;
    host::Query query;
    query.terms = {"a"};
    query.required = {true};
    host::Bm25Corpus corpus{0, 0, {0}};
    auto order_of = [](int64_t) { return std::optional<RecallIndex::Order>(RecallIndex::Order{}); };
    EXPECT_TRUE(index.best(query, corpus, 10, order_of).empty());
    index.put(1, {{"a", 1}}, 1);
    corpus = host::Bm25Corpus{1, 1, {1}};
    EXPECT_TRUE(index.best(query, corpus, 0, order_of).empty());
    ASSERT_EQ(index.best(query, corpus, 10, order_of).size(), 1u);
    index.erase(1);
    EXPECT_FALSE(index.contains(1));
    EXPECT_TRUE(index.best(query, corpus, 10, order_of).empty());
}

}  // namespace
}  // namespace mnemo::memory_test
