// recall_index.h -- the postings of one app's memories packed for app-wide
// keyword recall: each host term's holders as (slot, count) pairs in slot
// order, each slot's document length, and the best `limit` of a natural
// question's any-term matches found by MaxScore document at a time.
//
// An app's common words have posting lists of a good part of its
// memories; scoring every holder is what makes an app-wide question slow.
// MaxScore (Turtle and Flood, 1995) walks only the lists of the terms that
// can still lift a memory into the answer: a term whose upper bound, added
// to those of the terms below it, stays under the limit-th best score so
// far is "non-essential", looked up (binary search) only in the memories
// the essential lists bring. Each term's bound is bm25.h's share for its
// largest count in its shortest holder (both kept as the lists grow), far
// tighter than the (k1 + 1) * idf of an unbounded count. The walk scores
// a memory as bm25.h does, term by term in the query's order, so it
// answers the same numbers as scoring every match.
//
// A document is a key (the backend's: a row key) with its term counts;
// removing one leaves a dead slot behind until dead slots outnumber live
// ones, when the lists are packed again. The caller keeps this in step
// with its rows (a lock of its own around it); BM25's statistics (N, df,
// total length) are the caller's too, counted over the live memories the
// way its other recall paths count them.
#pragma once

#include "bm25.h"

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

    // One query's MaxScore walk.
    template <typename OrderOf>
    class Walk {
    public:
        Walk(const RecallIndex& index, const Query& query, const Bm25Corpus& corpus, size_t limit, OrderOf& order_of)
            : index_(index), limit_(limit), order_of_(order_of), lists_(query.terms.size()),
              tf_(query.terms.size(), 0), idf_(query.terms.size(), 0), average_(corpus.average_length()) {
            for (size_t t = 0; t < query.terms.size(); ++t) {
                idf_[t] = corpus.idf(t);
                auto it = index.postings_.find(query.terms[t]);
                if (it == index.postings_.end() || it->second.entries.empty()) continue;
                const Postings& postings = it->second;
                lists_[t] = List{&postings.entries, 0, share(t, postings.max_count, postings.min_length)};
                by_bound_.push_back(t);
            }
            std::sort(by_bound_.begin(), by_bound_.end(),
                      [&](size_t a, size_t b) { return lists_[a].bound < lists_[b].bound; });
            below_.assign(by_bound_.size() + 1, 0);
            for (size_t i = 0; i < by_bound_.size(); ++i) below_[i + 1] = below_[i] + lists_[by_bound_[i]].bound;
        }

        std::vector<Scored> run() {
            if (limit_ == 0) return {};
            for (std::optional<uint32_t> slot = next_slot(); slot; slot = next_slot()) consider(*slot);
            std::vector<Scored> answer;
            for (; !kept_.empty(); kept_.pop()) answer.push_back(Scored{kept_.top().key, kept_.top().relevance});
            std::reverse(answer.begin(), answer.end());
            return answer;
        }

    private:
        struct List {
            const std::vector<Posting>* entries = nullptr;
            size_t at = 0;
            double bound = 0;
        };
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

        // The score a document must reach to be answered: below the
        // limit-th best by a rounding margin (a bound and a score sum the
        // same terms in other orders), -infinity while fewer are kept.
        double threshold() const {
            if (kept_.size() < limit_) return -std::numeric_limits<double>::infinity();
            const double best = kept_.top().relevance;
            return best - 1e-9 * std::max(1.0, std::abs(best));
        }

        // bm25.h's share of term t, its idf computed once.
        double share(size_t t, double tf, double length) const { return bm25_share(idf_[t], average_, tf, length); }

        // The smallest slot of the essential lists not walked yet, their
        // cursors moved past it; nullopt when they are all walked (every
        // document left holds only non-essential terms).
        std::optional<uint32_t> next_slot() {
            while (first_essential_ < by_bound_.size() && below_[first_essential_ + 1] < threshold())
                ++first_essential_;
            uint32_t slot = kDead;
            for (size_t i = first_essential_; i < by_bound_.size(); ++i) {
                const List& list = lists_[by_bound_[i]];
                if (list.at < list.entries->size()) slot = std::min(slot, (*list.entries)[list.at].slot);
            }
            if (slot == kDead) return std::nullopt;
            for (size_t t = 0; t < tf_.size(); ++t) tf_[t] = 0;
            for (size_t i = first_essential_; i < by_bound_.size(); ++i) {
                List& list = lists_[by_bound_[i]];
                if (list.at < list.entries->size() && (*list.entries)[list.at].slot == slot)
                    tf_[by_bound_[i]] = (*list.entries)[list.at++].count;
            }
            return slot;
        }

        // The count of the non-essential term t in slot: its cursor only
        // moves forward, as the slots walked do.
        uint32_t look_up(size_t t, uint32_t slot) {
            List& list = lists_[t];
            auto from = list.entries->begin() + static_cast<std::ptrdiff_t>(list.at);
            auto it = std::lower_bound(from, list.entries->end(), slot,
                                       [](const Posting& p, uint32_t s) { return p.slot < s; });
            list.at = static_cast<size_t>(it - list.entries->begin());
            return it != list.entries->end() && it->slot == slot ? it->count : 0;
        }

        void consider(uint32_t slot) {
            const uint32_t length = index_.lengths_[slot];
            if (length == kDead) return;
            double reachable = below_[first_essential_];
            for (size_t i = first_essential_; i < by_bound_.size(); ++i)
                reachable += share(by_bound_[i], tf_[by_bound_[i]], length);
            for (size_t i = first_essential_; i-- > 0;) {
                if (reachable < threshold()) return;
                const size_t t = by_bound_[i];
                tf_[t] = look_up(t, slot);
                reachable += share(t, tf_[t], length) - lists_[t].bound;
            }
            if (reachable < threshold()) return;
            // bm25.h's sum, in the query's term order: the same number as every other path.
            double relevance = 0;
            for (size_t t = 0; t < tf_.size(); ++t) relevance += share(t, tf_[t], length);
            keep(slot, relevance);
        }

        void keep(uint32_t slot, double relevance) {
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

        const RecallIndex& index_;
        const size_t limit_;
        OrderOf& order_of_;
        std::vector<List> lists_;       // per query term; entries null when no document holds it
        std::vector<size_t> by_bound_;  // the terms held by some document, smallest bound first
        std::vector<double> below_;     // below_[i]: the sum of the bounds of by_bound_[0, i)
        size_t first_essential_ = 0;    // by_bound_[first_essential_..] are walked; the others looked up
        std::vector<uint32_t> tf_;      // the current document's counts, per query term
        std::vector<double> idf_;       // per query term
        const double average_;          // the corpus's average length
        // The worst kept on top.
        std::priority_queue<Kept, std::vector<Kept>, decltype(&ranks_before)> kept_{&ranks_before};
    };

    std::unordered_map<std::string, Postings> postings_;
    std::vector<int64_t> keys_;     // per slot
    std::vector<uint32_t> lengths_;  // per slot; kDead once erased
    std::unordered_map<int64_t, uint32_t> slots_;  // live keys
};

}  // namespace mnemo::host
