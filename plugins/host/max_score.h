// max_score.h -- MaxScore (Turtle and Flood, 1995), document at a time: the
// walk over a query's posting lists that meets every document whose score
// could still reach what the caller's answer needs, and skips the rest.
//
// A natural question's common words have posting lists of a good part of
// the corpus; scoring every holder is what makes an any-word query slow.
// The lists are sorted by their upper bound (no document's share of a list
// exceeds it); the lists whose bounds summed stay under the caller's
// threshold are "non-essential": a document holding only their terms
// cannot reach it, so only the other lists are walked, and the
// non-essential ones are looked up (binary search from a cursor that only
// moves forward) in the documents the walk brings, most promising first,
// stopping as soon as the document cannot reach the threshold.
//
// The caller (a Source) owns the lists and the answer: recall keeps the
// best `limit` memories (recall_index.h), transcript search the events of
// the best `limit` sessions (plugins/memory/search_ranking.cpp). Its
// threshold may only rise during a walk. A Source provides:
//   size_t lists() const;                        the query's lists
//   List docs(size_t list) const;                its documents, ascending
//                                                (List: a DocList)
//   uint32_t count(size_t list, size_t i) const; of its i-th document
//   double bound(size_t list) const;
//   bool length(uint32_t doc, uint32_t* length); false: the document is
//                                                not answerable (dead,
//                                                filtered): skipped
//   double share(size_t list, uint32_t count, uint32_t length) const;
//                                                0 for a count of 0
//   double threshold() const;                    -infinity: keep everything
//   void keep(uint32_t doc, const std::vector<uint32_t>& counts, uint32_t length);
//                                                counts per list; called for
//                                                every document whose sum of
//                                                shares reaches the threshold
// The walk sums shares in its own order to prune, so it compares with a
// rounding margin; keep() computes the document's score the caller's way.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace mnemo::host {

// A list's documents where the Source keeps them: entries of some type,
// doc_of(entry) the document of one (an ordinal, or a pair's slot).
template <typename Entry, uint32_t (*doc_of)(const Entry&)>
struct DocList {
    const Entry* entries = nullptr;
    size_t size = 0;
    uint32_t doc(size_t i) const { return doc_of(entries[i]); }
};

template <typename Source>
class MaxScore {
public:
    explicit MaxScore(Source& source) : source_(source), at_(source.lists(), 0), counts_(source.lists(), 0) {
        for (size_t list = 0; list < source.lists(); ++list) {
            lists_.push_back(source.docs(list));
            if (lists_.back().size > 0) by_bound_.push_back(list);
        }
        std::sort(by_bound_.begin(), by_bound_.end(),
                  [&](size_t a, size_t b) { return source.bound(a) < source.bound(b); });
        below_.assign(by_bound_.size() + 1, 0);
        for (size_t i = 0; i < by_bound_.size(); ++i) below_[i + 1] = below_[i] + source.bound(by_bound_[i]);
    }

    void run() {
        for (std::optional<uint32_t> doc = next_doc(); doc; doc = next_doc()) consider(*doc);
    }

private:
    static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

    // The caller's threshold less a rounding margin (a bound and a score sum
    // the same shares in other orders).
    double floor() const {
        const double threshold = source_.threshold();
        return threshold - 1e-9 * std::max(1.0, std::abs(threshold));
    }

    // The smallest document of the essential lists not walked yet, their
    // cursors moved past it and its counts in them taken; nullopt when they
    // are all walked (every document left holds only non-essential terms).
    std::optional<uint32_t> next_doc() {
        while (first_essential_ < by_bound_.size() && below_[first_essential_ + 1] < floor()) ++first_essential_;
        uint32_t doc = kNone;
        for (size_t i = first_essential_; i < by_bound_.size(); ++i) {
            const size_t list = by_bound_[i];
            if (at_[list] < lists_[list].size) doc = std::min(doc, lists_[list].doc(at_[list]));
        }
        if (doc == kNone) return std::nullopt;
        std::fill(counts_.begin(), counts_.end(), 0);
        for (size_t i = first_essential_; i < by_bound_.size(); ++i) {
            const size_t list = by_bound_[i];
            if (at_[list] < lists_[list].size && lists_[list].doc(at_[list]) == doc)
                counts_[list] = source_.count(list, at_[list]++);
        }
        return doc;
    }

    // The count of a non-essential list in doc (0 when it lacks it). The
    // documents walked ascend, so the one sought is most often a few
    // entries past the cursor: galloping from it, then a binary search in
    // the last gap, reads far less of a long list than a search to its end.
    uint32_t look_up(size_t list, uint32_t doc) {
        const List& docs = lists_[list];
        size_t low = at_[list], step = 1, high = low;
        while (high < docs.size && docs.doc(high) < doc) {
            low = high + 1;
            high += step;
            step *= 2;
        }
        high = std::min(high, docs.size);
        while (low < high) {
            const size_t mid = low + (high - low) / 2;
            if (docs.doc(mid) < doc) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        at_[list] = low;
        return low < docs.size && docs.doc(low) == doc ? source_.count(list, low) : 0;
    }

    void consider(uint32_t doc) {
        uint32_t length = 0;
        if (!source_.length(doc, &length)) return;
        double reachable = below_[first_essential_];
        for (size_t i = first_essential_; i < by_bound_.size(); ++i)
            reachable += source_.share(by_bound_[i], counts_[by_bound_[i]], length);
        for (size_t i = first_essential_; i-- > 0;) {
            if (reachable < floor()) return;
            const size_t list = by_bound_[i];
            counts_[list] = look_up(list, doc);
            reachable += source_.share(list, counts_[list], length) - source_.bound(list);
        }
        if (reachable < floor()) return;
        source_.keep(doc, counts_, length);
    }

    Source& source_;
    using List = decltype(std::declval<Source&>().docs(0));
    std::vector<List> lists_;       // per list
    std::vector<size_t> at_;        // per list: its cursor
    std::vector<uint32_t> counts_;  // the current document's count per list
    std::vector<size_t> by_bound_;  // the lists holding some document, smallest bound first
    std::vector<double> below_;     // below_[i]: the sum of the bounds of by_bound_[0, i)
    size_t first_essential_ = 0;    // by_bound_[first_essential_..] are walked; the others looked up
};

template <typename Source>
void max_score(Source& source) {
    MaxScore<Source>(source).run();
}

}  // namespace mnemo::host
