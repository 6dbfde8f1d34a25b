// VectorIndex::search and its paths: a user's exact scan, a candidate set's
// exact scan, the graph widened under a filter, the graph plus the tail.
#include "memory/vector_index.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace mnemo::memory {
namespace {

using Allowed = std::function<bool(uint64_t)>;

// Best first: higher similarity, then the higher key.
bool better(const VectorHit& a, const VectorHit& b) {
    return a.similarity > b.similarity || (a.similarity == b.similarity && a.key > b.key);
}

Allowed allowed_by(const VectorFilter& filter) {
    if (filter.candidates != nullptr && filter.accept) {
        return [&filter](uint64_t key) { return filter.candidates->contains(key) && filter.accept(key); };
    }
    if (filter.candidates != nullptr) return [&filter](uint64_t key) { return filter.candidates->contains(key); };
    return filter.accept;
}

}  // namespace

// The k best hits offered so far: a heap whose front is the worst kept.
class VectorIndex::Collector {
public:
    Collector(size_t k, std::optional<float> min_similarity) : k_(k), min_similarity_(min_similarity) {
        kept_.reserve(k);
    }
    void offer(uint64_t key, float similarity) {
        if (min_similarity_ && similarity < *min_similarity_) return;
        VectorHit hit{key, similarity};
        if (kept_.size() < k_) {
            kept_.push_back(hit);
            std::push_heap(kept_.begin(), kept_.end(), better);
        } else if (better(hit, kept_.front())) {
            std::pop_heap(kept_.begin(), kept_.end(), better);
            kept_.back() = hit;
            std::push_heap(kept_.begin(), kept_.end(), better);
        }
    }
    size_t k() const { return k_; }
    const std::optional<float>& min_similarity() const { return min_similarity_; }
    std::vector<VectorHit> take() {
        std::sort_heap(kept_.begin(), kept_.end(), better);
        return std::move(kept_);
    }

private:
    size_t k_;
    std::optional<float> min_similarity_;
    std::vector<VectorHit> kept_;
};

void VectorIndex::scan_refs(std::span<const Ref> refs, const float* query, const Allowed& allowed,
                            Collector& best) const {
    for (Ref ref : refs) {
        uint64_t key = key_of(ref);
        if (allowed && !allowed(key)) continue;
        best.offer(key, graph_->similarity(query, vector_of(ref)));
    }
}

void VectorIndex::scan_tail(const float* query, const Allowed& allowed, Collector& best) const {
    for (size_t row = 0; row < tail_.size(); ++row) {
        uint64_t key = tail_.keys[row];
        if (allowed && !allowed(key)) continue;
        best.offer(key, graph_->similarity(query, tail_.vectors.row(row)));
    }
}

void VectorIndex::scan_graph_elements(const float* query, const Allowed& allowed, Collector& best) const {
    for (uint32_t id = 0, count = graph_->element_count(); id < count; ++id) {
        if (graph_->is_deleted(id)) continue;
        uint64_t key = graph_->key(id);
        if (allowed && !allowed(key)) continue;
        best.offer(key, graph_->similarity(query, graph_->vector(id)));
    }
}

void VectorIndex::scan_candidates(const float* query, const VectorFilter& filter, std::optional<uint32_t> user,
                                  bool built_only, Collector& best) const {
    for (uint64_t key : *filter.candidates) {
        auto entry = entries_.find(key);
        if (entry == entries_.end() || (user && entry->second.user != *user)) continue;
        if (built_only && (entry->second.ref & kTailBit)) continue;
        if (filter.accept && !filter.accept(key)) continue;
        best.offer(key, graph_->similarity(query, vector_of(entry->second.ref)));
    }
}

void VectorIndex::search_user(const float* query, const VectorFilter& filter, Collector& best) const {
    auto found = user_ids_.find(*filter.user);
    if (found == user_ids_.end()) return;
    uint32_t user = found->second;
    const auto& members = users_[user].members;
    // The smaller set drives the scan.
    if (filter.candidates != nullptr && filter.candidates->size() < members.size()) {
        scan_candidates(query, filter, user, false, best);
    } else {
        scan_refs(members, query, allowed_by(filter), best);
    }
}

void VectorIndex::search_candidates(const float* query, const VectorFilter& filter, Collector& best) const {
    const auto& candidates = *filter.candidates;
    if (candidates.size() <= options_.exact_scan_max) {
        scan_candidates(query, filter, std::nullopt, false, best);
        return;
    }
    Allowed allowed = allowed_by(filter);
    scan_tail(query, allowed, best);
    double share = static_cast<double>(candidates.size()) / static_cast<double>(std::max<size_t>(entries_.size(), 1));
    // The tail is scanned already; a short graph answer falls back to the candidates, not every memory.
    if (!search_graph(query, allowed, share, best)) scan_candidates(query, filter, std::nullopt, true, best);
}

// hnswlib 0.6.2 cannot filter inside its search, so the graph is asked for
// more neighbours than k (about 2k / share of allowed keys, at least
// ef_search), and four times more each round while fewer than k pass the
// filter; past filtered_ef_max it gives up (false) and the caller scans exactly.
bool VectorIndex::search_graph(const float* query, const Allowed& allowed, double allowed_share,
                               Collector& best) const {
    if (graph_->element_count() == graph_->deleted_count()) return true;
    size_t k = std::max<size_t>(best.k(), 1);
    double wanted = 2.0 * static_cast<double>(k) / std::max(allowed_share, 1e-9);
    size_t ef = std::clamp<size_t>(static_cast<size_t>(std::min(wanted, 1e12)), options_.ef_search,
                                   std::max(options_.ef_search, options_.filtered_ef_max));
    for (;;) {
        std::vector<Neighbor> found = graph_->nearest(query, ef);
        size_t passed = 0;
        for (const Neighbor& neighbor : found) passed += allowed(neighbor.key) ? 1 : 0;
        bool exhausted = found.size() < ef;
        // Past the similarity floor a wider search only finds hits that would be dropped.
        bool below_floor = best.min_similarity() && !found.empty() && found.back().similarity < *best.min_similarity();
        if (passed >= k || exhausted || below_floor) {
            for (const Neighbor& neighbor : found) {
                if (allowed(neighbor.key)) best.offer(neighbor.key, neighbor.similarity);
            }
            return true;
        }
        if (ef >= options_.filtered_ef_max) return false;
        ef = std::min(ef * 4, options_.filtered_ef_max);
    }
}

std::variant<std::vector<VectorHit>, VectorError> VectorIndex::search(std::span<const float> query, size_t k,
                                                                      const VectorFilter& filter) const {
    auto unit = unit_vector(query, options_.dimension);
    if (auto* refused = std::get_if<VectorError>(&unit)) return VectorError{"query: " + refused->message};
    const float* values = std::get<std::vector<float>>(unit).data();
    Collector best(k, filter.min_similarity);
    if (k == 0) return best.take();

    std::shared_lock lock(mutex_);
    if (filter.user) {
        search_user(values, filter, best);
    } else if (filter.candidates != nullptr) {
        search_candidates(values, filter, best);
    } else if (filter.accept) {
        scan_tail(values, filter.accept, best);
        if (!search_graph(values, filter.accept, 1.0, best)) scan_graph_elements(values, filter.accept, best);
    } else {
        scan_tail(values, {}, best);
        for (const Neighbor& neighbor : graph_->nearest(values, std::max(options_.ef_search, k))) {
            best.offer(neighbor.key, neighbor.similarity);
        }
    }
    return best.take();
}

}  // namespace mnemo::memory
