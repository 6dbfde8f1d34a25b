// VectorIndex::save and load: the index file's sections, in order:
//   users    u64 count, then per user u32 length and the name's bytes
//   graph    HnswGraph::write (elements with vectors and keys, links)
//   owners   u32 user id per graph element (kNoUser for a deleted one)
//   tail     u64 count, then count keys (u64), user ids (u32), unit vectors
// inside CheckedWriter's header (magic, version, dimension, cursor, checksum).
#include "memory/vector_index.h"

#include <mutex>

#include <fmt/format.h>

namespace mnemo::memory {
namespace {

constexpr uint32_t kNoUser = 0xFFFF'FFFFu;

}  // namespace

void VectorIndex::write_sections(CheckedWriter& out) const {
    out.write_pod(static_cast<uint64_t>(users_.size()));
    for (const User& user : users_) {
        out.write_pod(static_cast<uint32_t>(user.name.size()));
        out.write(user.name.data(), user.name.size());
    }
    graph_->write(out);
    std::vector<uint32_t> owners(graph_->element_count(), kNoUser);
    std::vector<uint32_t> tail_users(tail_.size());
    for (const auto& [key, entry] : entries_) {
        if (entry.ref & kTailBit) {
            tail_users[entry.ref & ~kTailBit] = entry.user;
        } else {
            owners[entry.ref] = entry.user;
        }
    }
    out.write(owners.data(), owners.size() * sizeof(uint32_t));
    out.write_pod(static_cast<uint64_t>(tail_.size()));
    out.write(tail_.keys.data(), tail_.keys.size() * sizeof(uint64_t));
    out.write(tail_users.data(), tail_users.size() * sizeof(uint32_t));
    tail_.vectors.for_each_run(
        [&](const float* rows, size_t count) { out.write(rows, count * options_.dimension * sizeof(float)); });
}

std::optional<VectorError> VectorIndex::save(const std::string& path, uint64_t cursor) const {
    std::shared_lock lock(mutex_);
    CheckedWriter out(path);
    write_sections(out);
    auto failure = out.commit(FileHeaderFields{static_cast<uint32_t>(options_.dimension), cursor});
    if (failure) return VectorError{"cannot save the vector index: " + *failure};
    return std::nullopt;
}

namespace {

std::optional<std::string> read_users(CheckedReader& in, std::vector<std::string>& names) {
    uint64_t count = 0;
    if (!in.read_pod(count) || count > in.remaining() / sizeof(uint32_t)) return "the user section is damaged";
    names.resize(count);
    for (auto& name : names) {
        uint32_t length = 0;
        if (!in.read_pod(length) || length > in.remaining()) return "the user section is damaged";
        name.resize(length);
        if (!in.read(name.data(), length)) return "the user section is damaged";
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> VectorIndex::read_sections(CheckedReader& in) {
    std::vector<std::string> names;
    if (auto failure = read_users(in, names)) return failure;
    for (const auto& name : names) {
        if (intern_user(name) != users_.size() - 1) return fmt::format("user \"{}\" is listed twice", name);
    }
    auto graph = HnswGraph::read(in, options_.dimension);
    if (auto* failure = std::get_if<std::string>(&graph)) return *failure;
    graph_ = std::move(std::get<std::unique_ptr<HnswGraph>>(graph));

    std::vector<uint32_t> owners(graph_->element_count());
    if (!in.read(owners.data(), owners.size() * sizeof(uint32_t))) return "the element owners are cut short";
    entries_.reserve(owners.size());
    for (uint32_t id = 0; id < owners.size(); ++id) {
        if (graph_->is_deleted(id)) continue;
        if (owners[id] >= users_.size()) return fmt::format("graph element {} has no valid user", id);
        Entry entry{owners[id], 0, id};
        add_member(entry);
        entries_.emplace(graph_->key(id), entry);
    }

    uint64_t tail_count = 0;
    size_t row_bytes = sizeof(uint64_t) + sizeof(uint32_t) + options_.dimension * sizeof(float);
    if (!in.read_pod(tail_count) || tail_count > in.remaining() / row_bytes) return "the tail section is damaged";
    std::vector<uint32_t> tail_users(tail_count);
    tail_.keys.resize(tail_count);
    if (!in.read(tail_.keys.data(), tail_count * sizeof(uint64_t)) ||
        !in.read(tail_users.data(), tail_count * sizeof(uint32_t))) {
        return "the tail section is cut short";
    }
    std::vector<float> vector(options_.dimension);
    tail_.vectors.truncate(0);
    for (uint64_t row = 0; row < tail_count; ++row) {
        if (!in.read(vector.data(), vector.size() * sizeof(float))) return "the tail section is cut short";
        tail_.vectors.push_back(vector.data());
    }
    for (uint32_t row = 0; row < tail_count; ++row) {
        if (tail_users[row] >= users_.size()) return fmt::format("tail row {} has no valid user", row);
        Entry entry{tail_users[row], 0, row | kTailBit};
        if (entries_.contains(tail_.keys[row])) return fmt::format("key {} is indexed twice", tail_.keys[row]);
        add_member(entry);
        entries_.emplace(tail_.keys[row], entry);
    }
    return std::nullopt;
}

std::variant<VectorIndex::Loaded, VectorError> VectorIndex::load(const std::string& path,
                                                                 const VectorIndexOptions& options) {
    auto opened = CheckedReader::open(path);
    if (auto* failure = std::get_if<std::string>(&opened)) {
        return VectorError{"cannot load the vector index: " + *failure + "; rebuild it from the stored memories"};
    }
    auto& in = std::get<CheckedReader>(opened);
    if (in.fields().dimension != options.dimension) {
        return VectorError{fmt::format(
            "cannot load the vector index: {} holds {}-dimensional vectors, the app's dimension is {}; rebuild it "
            "from the stored memories",
            path, in.fields().dimension, options.dimension)};
    }
    auto index = std::make_unique<VectorIndex>(options);
    auto failure = index->read_sections(in);
    if (!failure) failure = in.finish();
    if (failure) {
        return VectorError{fmt::format(
            "cannot load the vector index: {} is damaged ({}); rebuild it from the stored memories", path, *failure)};
    }
    index->options_.links = index->graph_->shape().links;
    index->options_.ef_construction = index->graph_->shape().ef_construction;
    return Loaded{std::move(index), in.fields().cursor};
}

}  // namespace mnemo::memory
