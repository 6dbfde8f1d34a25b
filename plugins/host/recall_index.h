// recall_index.h -- the postings of one app's memories packed for app-wide
// keyword recall: each host term's holders as (slot, count) pairs in slot
// order, each slot's document length, and the best `limit` of a natural
// question's any-term matches found by MaxScore document at a time.
//
// An app's common words have posting lists of a good part of its
// memories; scoring every holder is what makes an app-wide question slow.
// The walk is max_score.h's, the threshold the limit-th best score so far;
// each term's bound is bm25.h's share for its largest count in its
// shortest holder (both kept as the lists grow). A memory is scored as
// bm25.h does, term by term in the query's order, so the walk answers the
// same numbers as scoring every match.
//
// A document is a key (the backend's: a row key) with its term counts;
// removing one leaves a dead slot behind until dead slots outnumber live
// ones, when the lists are packed again. The caller keeps this in step
// with its rows (a lock of its own around it); BM25's statistics (N, df,
// total length) are the caller's too, counted over the live memories the
// way its other recall paths count them.
#pragma once

#include "bm25.h"
#include "max_score.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mnemo::host {

class RecallIndex {
public:
    // How a document is ordered among equal scores (newest first, then id):
    // read from the caller, which also decides whether it may be answered.
    struct Order {
        int64_t updated_at_us = 0;
        std::string_view id;
    };
    struct Scored {
        int64_t key = 0;
        double relevance = 0;
    };

    // Adds the document of key (replacing an earlier one of that key).
    void put(int64_t key, const std::vector<TermCount>& terms, uint32_t length) {
        erase(key);
        const auto slot = static_cast<uint32_t>(keys_.size());
        keys_.push_back(key);
        lengths_.push_back(length);
        slots_.emplace(key, slot);
        for (const auto& [term, count] : terms) {
            Postings& postings = postings_[term];
            postings.entries.push_back(Posting{slot, count});
            postings.max_count = std::max(postings.max_count, count);
            postings.min_length = std::min(postings.min_length, length);
        }
    }

    void erase(int64_t key) {
        auto it = slots_.find(key);
        if (it == slots_.end()) return;
        lengths_[it->second] = kDead;
        slots_.erase(it);
        if (keys_.size() > 1024 && keys_.size() - slots_.size() > slots_.size()) pack();
    }

    bool contains(int64_t key) const { return slots_.contains(key); }
    size_t size() const { return slots_.size(); }

    // The best `limit` documents holding any of query's terms, best first,
    // scored against corpus (whose document_frequency follows query.terms).
    // order_of(key) -> std::optional<Order>: nullopt leaves a document out
    // (expired, or outside the caller's filter); it is asked only of
    // documents whose score could enter the answer.
    template <typename OrderOf>
    std::vector<Scored> best(const Query& query, const Bm25Corpus& corpus, size_t limit, OrderOf&& order_of) const {
        Walk<OrderOf> walk(*this, query, corpus, limit, order_of);
        return walk.run();
    }

private:
    static constexpr uint32_t kDead = std::numeric_limits<uint32_t>::max();

    struct Posting {
        uint32_t slot;
        uint32_t count;
    };
    static uint32_t slot_of(const Posting& posting) { return posting.slot; }
    struct Postings {
        std::vector<Posting> entries;  // slot order
        uint32_t max_count = 0;
        uint32_t min_length = kDead;
    };

    // Renumbers the live slots densely (their order kept) and drops the dead
    // ones' postings; the bounds are counted afresh.
    void pack() {
        std::vector<uint32_t> renumbered(keys_.size(), kDead);
        std::vector<int64_t> keys;
        std::vector<uint32_t> lengths;
        for (uint32_t slot = 0; slot < keys_.size(); ++slot) {
            if (lengths_[slot] == kDead) continue;
            renumbered[slot] = static_cast<uint32_t>(keys.size());
            slots_[keys_[slot]] = renumbered[slot];
            keys.push_back(keys_[slot]);
            lengths.push_back(lengths_[slot]);
        }
        for (auto it = postings_.begin(); it != postings_.end();) {
            Postings& postings = it->second;
            std::vector<Posting> kept;
            postings.max_count = 0;
            postings.min_length = kDead;
            for (const Posting& posting : postings.entries) {
                const uint32_t slot = renumbered[posting.slot];
                if (slot == kDead) continue;
                kept.push_back(Posting{slot, posting.count});
                postings.max_count = std::max(postings.max_count, posting.count);
                postings.min_length = std::min(postings.min_length, lengths[slot]);
            }
            postings.entries = std::move(kept);
            it = postings.entries.empty() ? postings_.erase(it) : std::next(it);
        }
        keys_ = std::move(keys);
        lengths_ = std::move(lengths);
    }

    // One query's answer as max_score.h's Source: the lists of the query's
    // terms, each bounded by bm25.h's share for its largest count in its
    // shortest holder (far tighter than the (k1 + 1) * idf of an unbounded
    // count), the best `limit` kept in a heap.
    template <typename OrderOf>
    class Walk {
    public:
        Walk(const RecallIndex& index, const Query& query, const Bm25Corpus& corpus, size_t limit, OrderOf& order_of)
            : index_(index), limit_(limit), order_of_(order_of), lists_(query.terms.size()),
              bounds_(query.terms.size(), 0), idf_(query.terms.size(), 0), average_(corpus.average_length()) {
            for (size_t t = 0; t < query.terms.size(); ++t) {
                idf_[t] = corpus.idf(t);
                auto it = index.postings_.find(query.terms[t]);
                if (it == index.postings_.end()) continue;
                lists_[t] = &it->second.entries;
                bounds_[t] = share(t, it->second.max_count, it->second.min_length);
            }
        }

        std::vector<Scored> run() {
            if (limit_ == 0) return {};
            max_score(*this);
            std::vector<Scored> answer;
            for (; !kept_.empty(); kept_.pop()) answer.push_back(Scored{kept_.top().key, kept_.top().relevance});
            std::reverse(answer.begin(), answer.end());
            return answer;
        }

        // max_score.h's Source.
        size_t lists() const { return lists_.size(); }
        using List = DocList<Posting, &slot_of>;
        List docs(size_t list) const { return lists_[list] ? List{lists_[list]->data(), lists_[list]->size()} : List{}; }
        uint32_t count(size_t list, size_t i) const { return (*lists_[list])[i].count; }
        double bound(size_t list) const { return bounds_[list]; }
        bool length(uint32_t slot, uint32_t* length) const {
            *length = index_.lengths_[slot];
            return *length != kDead;
        }
        // bm25.h's share of term t, its idf computed once.
        double share(size_t t, double tf, double length) const { return bm25_share(idf_[t], average_, tf, length); }
        double threshold() const {
            return kept_.size() < limit_ ? -std::numeric_limits<double>::infinity() : kept_.top().relevance;
        }
        void keep(uint32_t slot, const std::vector<uint32_t>& tf, uint32_t length) {
            // bm25.h's sum, in the query's term order: the same number as every other path.
            double relevance = 0;
            for (size_t t = 0; t < tf.size(); ++t) relevance += share(t, tf[t], length);
            if (kept_.size() >= limit_ && relevance < kept_.top().relevance) return;
            const int64_t key = index_.keys_[slot];
            const std::optional<Order> order = order_of_(key);
            if (!order) return;
            Kept candidate{key, relevance, *order};
            if (kept_.size() < limit_) {
                kept_.push(candidate);
            } else if (ranks_before(candidate, kept_.top())) {
                kept_.pop();
                kept_.push(candidate);
            }
        }

    private:
        struct Kept {
            int64_t key;
            double relevance;
            Order order;
        };
        static bool ranks_before(const Kept& a, const Kept& b) {
            if (a.relevance != b.relevance) return a.relevance > b.relevance;
            if (a.order.updated_at_us != b.order.updated_at_us) return a.order.updated_at_us > b.order.updated_at_us;
            return a.order.id > b.order.id;
        }

        const RecallIndex& index_;
        const size_t limit_;
        OrderOf& order_of_;
        std::vector<const std::vector<Posting>*> lists_;  // per query term; null when no document holds it
        std::vector<double> bounds_;                       // per query term
        std::vector<double> idf_;                          // per query term
        const double average_;                             // the corpus's average length
        // The worst kept on top.
        std::priority_queue<Kept, std::vector<Kept>, decltype(&ranks_before)> kept_{&ranks_before};
    };

    std::unordered_map<std::string, Postings> postings_;
    std::vector<int64_t> keys_;     // per slot
    std::vector<uint32_t> lengths_;  // per slot; kDead once erased
    std::unordered_map<int64_t, uint32_t> slots_;  // live keys
};

}  // namespace mnemo::host
