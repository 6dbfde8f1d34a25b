#include "memory/vector_index.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>

namespace mnemo::memory {

std::variant<std::vector<float>, VectorError> unit_vector(std::span<const float> vector, size_t dimension) {
    if (vector.size() != dimension) {
        return VectorError{fmt::format("the vector has {} numbers; this index holds {}-dimensional vectors",
                                       vector.size(), dimension)};
    }
    double squares = 0;
    for (size_t i = 0; i < vector.size(); ++i) {
        if (!std::isfinite(vector[i])) {
            return VectorError{fmt::format("vector[{}] is not a finite number", i)};
        }
        squares += static_cast<double>(vector[i]) * vector[i];
    }
    if (!(squares > 0)) return VectorError{"the vector has length zero, so it has no direction to compare"};
    auto scale = static_cast<float>(1.0 / std::sqrt(squares));
    std::vector<float> unit(vector.begin(), vector.end());
    for (float& value : unit) value *= scale;
    return unit;
}

VectorIndex::VectorIndex(const VectorIndexOptions& options)
    : options_(options),
      graph_(std::make_unique<HnswGraph>(
          GraphShape{options.dimension, options.links, options.ef_construction, options.seed}, 0)),
      tail_(options.dimension) {}

VectorIndex::~VectorIndex() = default;

VectorIndexOptions VectorIndex::options() const {
    std::shared_lock lock(mutex_);
    return options_;
}

void VectorIndex::set_ef_search(size_t ef) {
    std::unique_lock lock(mutex_);
    options_.ef_search = std::max<size_t>(ef, 1);
}

uint32_t VectorIndex::intern_user(std::string_view name) {
    auto found = user_ids_.find(name);
    if (found != user_ids_.end()) return found->second;
    auto id = static_cast<uint32_t>(users_.size());
    users_.push_back(User{std::string(name), {}});
    user_ids_.emplace(std::string(name), id);
    return id;
}

void VectorIndex::add_member(Entry& entry) {
    auto& members = users_[entry.user].members;
    entry.position = static_cast<uint32_t>(members.size());
    members.push_back(entry.ref);
}

void VectorIndex::remove_member(const Entry& entry) {
    auto& members = users_[entry.user].members;
    Ref moved = members.back();
    members.pop_back();
    if (entry.position == members.size()) return;
    members[entry.position] = moved;
    entries_.at(key_of(moved)).position = entry.position;
}

void VectorIndex::set_ref(Entry& entry, Ref ref) {
    entry.ref = ref;
    users_[entry.user].members[entry.position] = ref;
}

VectorIndex::Ref VectorIndex::append_to_tail(uint64_t key, const float* unit_vector) {
    auto row = static_cast<Ref>(tail_.size());
    tail_.keys.push_back(key);
    tail_.vectors.push_back(unit_vector);
    return row | kTailBit;
}

void VectorIndex::remove_tail_row(uint32_t row) {
    size_t last = tail_.size() - 1;
    if (row != last) {
        size_t dimension = options_.dimension;
        tail_.keys[row] = tail_.keys[last];
        std::memcpy(tail_.vectors.row(row), tail_.vectors.row(last), dimension * sizeof(float));
        set_ref(entries_.at(tail_.keys[row]), row | kTailBit);
    }
    tail_.keys.pop_back();
    tail_.vectors.truncate(last);
    release_tail_memory();
}

// The tail's vectors go back block by block as it drains (RowBlocks); its
// keys, 8 bytes a row, once they fill a quarter of what they hold.
void VectorIndex::release_tail_memory() {
    constexpr size_t kKeepKeys = 1 << 14;
    if (tail_.keys.capacity() > 4 * tail_.keys.size() + kKeepKeys) tail_.keys.shrink_to_fit();
}

std::optional<VectorError> VectorIndex::put(uint64_t key, std::string_view user, std::span<const float> vector) {
    auto unit = unit_vector(vector, options_.dimension);
    if (auto* refused = std::get_if<VectorError>(&unit)) return *refused;
    const float* values = std::get<std::vector<float>>(unit).data();

    std::unique_lock lock(mutex_);
    uint32_t user_id = intern_user(user);
    auto [found, is_new] = entries_.try_emplace(key);
    Entry& entry = found->second;
    if (is_new) {
        entry.user = user_id;
        entry.ref = append_to_tail(key, values);
        add_member(entry);
        return std::nullopt;
    }
    if (entry.ref & kTailBit) {
        size_t row = entry.ref & ~kTailBit;
        std::memcpy(tail_.vectors.row(row), values, options_.dimension * sizeof(float));
    } else {
        // The old element stays in the graph, deleted; building the key again revives it in place.
        graph_->mark_deleted(entry.ref);
        set_ref(entry, append_to_tail(key, values));
    }
    if (entry.user != user_id) {
        remove_member(entry);
        entry.user = user_id;
        add_member(entry);
    }
    return std::nullopt;
}

bool VectorIndex::erase(uint64_t key) {
    std::unique_lock lock(mutex_);
    auto found = entries_.find(key);
    if (found == entries_.end()) return false;
    Entry entry = found->second;
    remove_member(entry);
    entries_.erase(found);
    if (entry.ref & kTailBit) {
        remove_tail_row(entry.ref & ~kTailBit);
    } else {
        graph_->mark_deleted(entry.ref);
    }
    return true;
}

bool VectorIndex::contains(uint64_t key) const {
    std::shared_lock lock(mutex_);
    return entries_.contains(key);
}

std::vector<uint64_t> VectorIndex::keys() const {
    std::shared_lock lock(mutex_);
    std::vector<uint64_t> out;
    out.reserve(entries_.size());
    for (const auto& [key, entry] : entries_) out.push_back(key);
    return out;
}

size_t VectorIndex::build_chunk(size_t count, unsigned threads) {
    size_t n = std::min(count, tail_.size());
    if (n == 0) return 0;
    size_t first = tail_.size() - n;
    graph_->reserve(graph_->element_count() + n);
    std::vector<uint32_t> ids(n);
    std::atomic<size_t> next{0};
    auto insert_some = [&] {
        for (size_t i = next++; i < n; i = next++) {
            ids[i] = graph_->add(tail_.vectors.row(first + i), tail_.keys[first + i]);
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads && t < n; ++t) helpers.emplace_back(insert_some);
    insert_some();
    for (auto& helper : helpers) helper.join();
    for (size_t i = 0; i < n; ++i) set_ref(entries_.at(tail_.keys[first + i]), ids[i]);
    tail_.keys.resize(first);
    tail_.vectors.truncate(first);
    release_tail_memory();
    return n;
}

size_t VectorIndex::build_some(size_t max_n, unsigned threads) {
    threads = std::max(threads, 1u);
    size_t moved = 0;
    while (moved < max_n) {
        std::unique_lock lock(mutex_);
        size_t chunk = std::min(max_n - moved, options_.build_chunk * threads);
        size_t done = build_chunk(chunk, threads);
        if (done == 0) break;
        moved += done;
    }
    return moved;
}

VectorIndexStats VectorIndex::stats() const {
    std::shared_lock lock(mutex_);
    return VectorIndexStats{entries_.size(), tail_.size(), graph_->element_count(), graph_->deleted_count(),
                            users_.size()};
}

const float* VectorIndex::vector_of(Ref ref) const {
    if (ref & kTailBit) return tail_.vectors.row(ref & ~kTailBit);
    return graph_->vector(ref);
}

uint64_t VectorIndex::key_of(Ref ref) const {
    if (ref & kTailBit) return tail_.keys[ref & ~kTailBit];
    return graph_->key(ref);
}

}  // namespace mnemo::memory
