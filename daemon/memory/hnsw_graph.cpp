#include "memory/hnsw_graph.h"

// hnswlib 0.6.2's SSE search prefetches the id one past the end of a link
// list: for a full upper-level list that read is past its malloc'd size (in
// the allocator's rounding, so harmless, and the prefetch cannot fault), but
// AddressSanitizer stops on it. Sanitizer builds use the plain C++ loops.
#if defined(__SANITIZE_ADDRESS__) && !defined(NO_MANUAL_VECTORIZATION)
#define NO_MANUAL_VECTORIZATION
#endif
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "memory/unit_distance.h"

namespace mnemo::memory {
namespace {

using Hnsw = hnswlib::HierarchicalNSW<float>;

// hnswlib draws levels as -ln(u)/ln(M); a level above this is a damaged file.
constexpr uint32_t kMaxLevel = 64;
constexpr size_t kMinCapacity = 1024;

struct GraphFileHeader {
    uint64_t count;
    uint64_t links;
    uint64_t ef_construction;
    uint64_t seed;
    int64_t max_level;
    uint64_t entry_point;
    uint64_t element_bytes;
};

// Cosine distance of unit vectors with the widest loop this CPU runs
// (unit_distance.h); hnswlib's own space would use SSE only.
class UnitVectorSpace final : public hnswlib::SpaceInterface<float> {
public:
    explicit UnitVectorSpace(size_t dimension) : dimension_(dimension), distance_(fastest_unit_distance().distance) {}
    size_t get_data_size() override { return dimension_ * sizeof(float); }
    hnswlib::DISTFUNC<float> get_dist_func() override { return distance_; }
    void* get_dist_func_param() override { return &dimension_; }

private:
    size_t dimension_;
    UnitDistance distance_;
};

}  // namespace

struct HnswGraph::Impl {
    Impl(const GraphShape& shape, size_t capacity)
        : space(shape.dimension),
          hnsw(&space, std::max(capacity, kMinCapacity), shape.links, shape.ef_construction, shape.seed) {}
    UnitVectorSpace space;
    Hnsw hnsw;
};

HnswGraph::HnswGraph(const GraphShape& shape, size_t capacity)
    : shape_(shape), impl_(std::make_unique<Impl>(shape, capacity)) {}

HnswGraph::~HnswGraph() = default;

uint32_t HnswGraph::element_count() const {
    return static_cast<uint32_t>(impl_->hnsw.cur_element_count);
}

size_t HnswGraph::deleted_count() const {
    return impl_->hnsw.num_deleted_;
}

void HnswGraph::reserve(size_t total) {
    size_t capacity = impl_->hnsw.max_elements_;
    if (total <= capacity) return;
    impl_->hnsw.resizeIndex(std::max(total, capacity + capacity / 2));
}

uint32_t HnswGraph::add(const float* unit_vector, uint64_t key) {
    return impl_->hnsw.addPoint(unit_vector, key, -1);
}

void HnswGraph::mark_deleted(uint32_t id) {
    impl_->hnsw.markDeletedInternal(id);
}

bool HnswGraph::is_deleted(uint32_t id) const {
    return impl_->hnsw.isMarkedDeleted(id);
}

const float* HnswGraph::vector(uint32_t id) const {
    return reinterpret_cast<const float*>(impl_->hnsw.getDataByInternalId(id));
}

uint64_t HnswGraph::key(uint32_t id) const {
    return impl_->hnsw.getExternalLabel(id);
}

float HnswGraph::similarity(const float* a, const float* b) const {
    return 1.0f - impl_->hnsw.fstdistfunc_(a, b, impl_->hnsw.dist_func_param_);
}

std::vector<Neighbor> HnswGraph::nearest(const float* unit_query, size_t count) const {
    auto found = impl_->hnsw.searchKnn(unit_query, count);
    std::vector<Neighbor> best_first(found.size());
    for (size_t i = found.size(); i-- > 0; found.pop()) {
        best_first[i] = Neighbor{1.0f - found.top().first, found.top().second};
    }
    return best_first;
}

void HnswGraph::write(CheckedWriter& out) const {
    const Hnsw& hnsw = impl_->hnsw;
    GraphFileHeader header{hnsw.cur_element_count,
                           shape_.links,
                           shape_.ef_construction,
                           shape_.seed,
                           hnsw.maxlevel_,
                           static_cast<uint64_t>(hnsw.enterpoint_node_),
                           hnsw.size_data_per_element_};
    out.write_pod(header);
    out.write(hnsw.data_level0_memory_, hnsw.cur_element_count * hnsw.size_data_per_element_);
    for (size_t id = 0; id < hnsw.cur_element_count; ++id) {
        auto level = static_cast<uint32_t>(hnsw.element_levels_[id]);
        out.write_pod(level);
        if (level > 0) out.write(hnsw.linkLists_[id], level * hnsw.size_links_per_element_);
    }
}

namespace {

// Every link of a loaded graph must name an element of it: a damaged link
// would make a search read outside hnswlib's block.
bool links_in_range(const Hnsw& hnsw, const hnswlib::linklistsizeint* list, size_t max_links) {
    size_t size = hnsw.getListCount(const_cast<hnswlib::linklistsizeint*>(list));
    if (size > max_links) return false;
    const auto* ids = reinterpret_cast<const hnswlib::tableint*>(list + 1);
    return std::all_of(ids, ids + size, [&](hnswlib::tableint id) { return id < hnsw.cur_element_count; });
}

std::optional<std::string> read_upper_levels(CheckedReader& in, Hnsw& hnsw) {
    for (size_t id = 0; id < hnsw.cur_element_count; ++id) {
        uint32_t level = 0;
        if (!in.read_pod(level)) return "the graph's element levels are cut short";
        if (level > kMaxLevel || level > static_cast<uint32_t>(std::max(hnsw.maxlevel_, 0))) {
            return fmt::format("graph element {} has level {}, above the graph's top level", id, level);
        }
        hnsw.element_levels_[id] = static_cast<int>(level);
        hnsw.linkLists_[id] = nullptr;
        if (level == 0) continue;
        size_t bytes = level * hnsw.size_links_per_element_;
        if (bytes > in.remaining()) return "the graph's upper links are cut short";
        // One id of slack, for the prefetch past the list's end (see the top of this file).
        hnsw.linkLists_[id] = static_cast<char*>(std::malloc(bytes + sizeof(hnswlib::tableint)));
        if (hnsw.linkLists_[id] == nullptr) throw std::bad_alloc();
        if (!in.read(hnsw.linkLists_[id], bytes)) return "the graph's upper links are cut short";
        for (uint32_t at = 1; at <= level; ++at) {
            if (!links_in_range(hnsw, hnsw.get_linklist(id, static_cast<int>(at)), hnsw.maxM_)) {
                return fmt::format("graph element {} links outside the graph at level {}", id, at);
            }
        }
    }
    return std::nullopt;
}

std::optional<std::string> index_level0(Hnsw& hnsw) {
    hnsw.label_lookup_.reserve(hnsw.cur_element_count);
    for (hnswlib::tableint id = 0; id < hnsw.cur_element_count; ++id) {
        if (!links_in_range(hnsw, hnsw.get_linklist0(id), hnsw.maxM0_)) {
            return fmt::format("graph element {} links outside the graph", id);
        }
        if (!hnsw.label_lookup_.emplace(hnsw.getExternalLabel(id), id).second) {
            return fmt::format("key {} appears twice in the graph", hnsw.getExternalLabel(id));
        }
        if (hnsw.isMarkedDeleted(id)) ++hnsw.num_deleted_;
    }
    return std::nullopt;
}

}  // namespace

std::variant<std::unique_ptr<HnswGraph>, std::string> HnswGraph::read(CheckedReader& in, size_t dimension) {
    GraphFileHeader header{};
    if (!in.read_pod(header)) return std::string("the graph section is cut short");
    GraphShape shape{dimension, header.links, header.ef_construction, header.seed};
    if (header.links < 2 || header.links > 256) return fmt::format("the graph has M = {}", header.links);
    auto graph = std::make_unique<HnswGraph>(shape, 0);
    Hnsw& hnsw = graph->impl_->hnsw;
    if (header.element_bytes != hnsw.size_data_per_element_ || header.element_bytes == 0 ||
        header.count > in.remaining() / header.element_bytes) {
        return std::string("the graph section does not match its element size and count");
    }
    bool empty = header.count == 0;
    if (header.max_level > static_cast<int64_t>(kMaxLevel) || header.max_level < (empty ? -1 : 0) ||
        (!empty && header.entry_point >= header.count)) {
        return std::string("the graph's entry point or top level is out of range");
    }
    graph->reserve(header.count);
    if (!in.read(hnsw.data_level0_memory_, header.count * header.element_bytes)) {
        return std::string("the graph's elements are cut short");
    }
    hnsw.cur_element_count = header.count;
    hnsw.maxlevel_ = static_cast<int>(header.max_level);
    hnsw.enterpoint_node_ = static_cast<hnswlib::tableint>(empty ? -1 : static_cast<int64_t>(header.entry_point));
    // Levels first: the destructor frees linkLists_ of elements whose level is above 0.
    if (auto failure = read_upper_levels(in, hnsw)) return *failure;
    if (auto failure = index_level0(hnsw)) return *failure;
    return graph;
}

}  // namespace mnemo::memory
