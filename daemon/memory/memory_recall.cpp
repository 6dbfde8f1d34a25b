// Recall: the keyword list from storage, the vector list from the index under
// the exact filters, fused (recall_fusion.h) and rendered with their rows.
#include "memory/memory_calls.h"
#include "memory/memory_index.h"
#include "memory/memory_render.h"
#include "memory/memory_service.h"
#include "observability/log.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace mnemo::memory {
namespace {

using core::Outcome;
using storage::MemoryRow;
using storage::opt_str;
using storage::str;

// The request's filters as storage takes them; views into `in`.
struct FilterArgs {
    MetadataViews metadata;
    mnemo_memory_filter filter{};

    FilterArgs(const std::string& app, const RecallInput& in, int64_t now_us) : metadata(in.metadata) {
        filter.app = str(app);
        filter.user = opt_str(in.user);
        filter.name_space = opt_str(in.name_space);
        filter.session_id = opt_str(in.session_id);
        filter.metadata_keys = metadata.keys.data();
        filter.metadata_values_json = metadata.values.data();
        filter.n_metadata = metadata.keys.size();
        filter.created_after_us = in.created_after_us.value_or(0);
        filter.created_before_us = in.created_before_us.value_or(0);
        filter.now_us = now_us;
    }
    FilterArgs(const FilterArgs&) = delete;
    FilterArgs& operator=(const FilterArgs&) = delete;
};

// The index can decide a filter that names at most the user by itself.
bool user_only(const RecallInput& in) {
    return !in.name_space && !in.session_id && in.metadata.empty() && !in.created_after_us && !in.created_before_us;
}

std::string_view trimmed(const std::optional<std::string>& text) {
    if (!text) return {};
    std::string_view out = *text;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!out.empty() && space(out.front())) out.remove_prefix(1);
    while (!out.empty() && space(out.back())) out.remove_suffix(1);
    return out;
}

RankedCandidate candidate_of(const MemoryRow& row, double value) {
    return RankedCandidate{row.key, value, row.updated_at_us, row.id};
}

// One recall in progress: its request, the rows found so far by key.
class Recall {
public:
    Recall(const MemoryEnv& env, const std::string& app, const RecallInput& in)
        : env_(env), app_(app), in_(in), args_(app, in, env.clock.now_us()) {}

    Outcome run();

private:
    std::optional<Outcome> resolve_mode();
    std::optional<Outcome> keyword_list(int64_t depth);
    std::optional<Outcome> vector_list(int64_t depth);
    std::optional<Outcome> check_dimension();
    void note_reembedding();
    std::optional<Outcome> drop_vector_list();
    std::optional<Outcome> index_search(size_t k, const VectorFilter& filter, std::vector<VectorHit>& hits);
    std::optional<Outcome> search_candidates(int64_t depth, std::vector<VectorHit>& hits, bool& done);
    std::optional<Outcome> search_growing(size_t first_k, int64_t depth, std::vector<VectorHit>& hits);
    std::optional<Outcome> rows_of(const std::vector<VectorHit>& hits, std::unordered_set<int64_t>* found);
    Outcome render(const std::vector<FusedHit>& fused) const;

    const MemoryEnv& env_;
    const std::string& app_;
    const RecallInput& in_;
    FilterArgs args_;
    FusionMode mode_ = FusionMode::Keyword;
    std::optional<std::vector<float>> query_vector_;
    std::vector<RankedCandidate> keyword_, vector_;
    std::unordered_map<int64_t, MemoryRow> rows_;
    std::optional<ReembedNote> reembedding_;  // the app's move to another dimension, when under way
    bool query_embedded_ = false;             // the query vector is the embedder's, not the request's
    bool keyword_only_ = false;               // the index has no vectors of the embedder's dimension
};

std::optional<Outcome> Recall::resolve_mode() {
    if (in_.embedding) {
        query_vector_ = in_.embedding;
    } else if (in_.mode != RecallMode::Keyword && !trimmed(in_.query).empty() && env_.embed_query) {
        auto embedded = env_.embed_query(*in_.query);
        if (auto* vector = std::get_if<std::vector<float>>(&embedded)) {
            query_vector_ = std::move(*vector);
            query_embedded_ = true;
        } else if (in_.mode == RecallMode::Default) {
            log::warn("recall's query embedding failed, answering by keywords: {}", std::get<std::string>(embedded));
        } else {
            return Outcome::fail(core::Error{
                core::ErrorCode::Unavailable,
                fmt::format("mode {} needs the query embedded, but the embedder failed: {}; check that the embedder "
                            "of memory.embedder answers within its timeout and retry, or send \"embedding\", or use "
                            "mode keyword",
                            mode_name(in_.mode), std::get<std::string>(embedded)),
                "{}", core::FailedPart::Embedder});
        }
    }
    switch (in_.mode) {
        case RecallMode::Default:
            mode_ = query_vector_ ? FusionMode::Hybrid : FusionMode::Keyword;
            return std::nullopt;
        case RecallMode::Keyword:
            mode_ = FusionMode::Keyword;
            return std::nullopt;
        case RecallMode::Semantic:
        case RecallMode::Hybrid:
            mode_ = in_.mode == RecallMode::Semantic ? FusionMode::Semantic : FusionMode::Hybrid;
            if (query_vector_) return std::nullopt;
            return Outcome::fail(core::invalid(
                fmt::format("mode: {} needs a query vector; send \"embedding\", or configure memory.embedder so "
                            "the query text can be embedded",
                            mode_name(in_.mode))));
    }
    return std::nullopt;
}

std::optional<Outcome> Recall::keyword_list(int64_t depth) {
    std::string_view q = trimmed(in_.query);
    if (mode_ == FusionMode::Semantic || q.empty()) return std::nullopt;
    mnemo_memory_search_req req{};
    req.filter = args_.filter;
    req.q = str(q);
    req.limit = depth;
    req.match = in_.match_all ? MNEMO_MATCH_ALL : MNEMO_MATCH_ANY;
    storage::Collector collector;
    if (auto failed = call_memory_op(env_, env_.backend.ops().memory_search, req, collector)) return failed;
    for (auto& hit : collector.result().memory_hits) {
        keyword_.push_back(candidate_of(hit.memory, hit.relevance));
        rows_.emplace(hit.memory.key, std::move(hit.memory));
    }
    return std::nullopt;
}

// memory.dimensions when set; otherwise the index's search refuses a query of
// another dimension than the app's (naming both), with no second feed read.
std::optional<Outcome> Recall::check_dimension() {
    size_t wanted = env_.config->memory_for(app_).dimensions;
    if (wanted == 0 || wanted == query_vector_->size()) return std::nullopt;
    // memory.dimensions names the new model while the old vectors still serve.
    if (reembedding_ && reembedding_->from == query_vector_->size()) return std::nullopt;
    return Outcome::fail(core::invalid(fmt::format(
        "embedding: the query vector has {} dimensions, but app {}'s memories have {}; embed the query with the "
        "model of the stored vectors",
        query_vector_->size(), app_, wanted)));
}

std::optional<Outcome> Recall::index_search(size_t k, const VectorFilter& filter, std::vector<VectorHit>& hits) {
    auto found = env_.index->search(app_, *query_vector_, k, filter);
    if (auto* error = std::get_if<VectorError>(&found)) {
        // The embedder's model has another dimension than every stored vector
        // (changed, memories.reembed{dimensions=} not run yet): default mode
        // answers by words, as when the embedder fails.
        if (query_embedded_ && in_.mode == RecallMode::Default) {
            keyword_only_ = true;
            hits.clear();
            return std::nullopt;
        }
        return Outcome::fail(core::invalid(fmt::format("embedding: {}", error->message)));
    }
    hits = std::move(std::get<std::vector<VectorHit>>(found));
    return std::nullopt;
}

// A filter the index cannot decide: storage lists the allowed keys; a set
// small enough to scan exactly goes to the index as candidates.
std::optional<Outcome> Recall::search_candidates(int64_t depth, std::vector<VectorHit>& hits, bool& done) {
    const size_t scan_max = env_.exact_scan_max;
    done = false;
    if (scan_max == 0) return std::nullopt;
    mnemo_memory_candidates_req req{};
    req.filter = args_.filter;
    req.limit = static_cast<int64_t>(scan_max);
    storage::Collector collector;
    if (auto failed = call_memory_op(env_, env_.backend.ops().memory_candidates, req, collector)) return failed;
    const auto& keys = collector.result().memory_keys;
    done = keys.size() <= scan_max;
    if (!done) return std::nullopt;
    std::unordered_set<uint64_t> allowed(keys.begin(), keys.end());
    VectorFilter filter;
    filter.user = in_.user;
    filter.candidates = &allowed;
    return index_search(static_cast<size_t>(depth), filter, hits);
}

// The index searches under the user filter with a growing k, and storage
// keeps the live keys the filter allows, until enough. The index also holds
// memories storage no longer answers (expired, not swept yet), so even a
// filter of the user alone may need a larger k than `depth`.
std::optional<Outcome> Recall::search_growing(size_t first_k, int64_t depth, std::vector<VectorHit>& hits) {
    VectorFilter filter;
    filter.user = in_.user;
    auto wanted = static_cast<size_t>(depth);
    for (size_t k = first_k;; k *= 4) {
        std::vector<VectorHit> found;
        if (auto failed = index_search(k, filter, found)) return failed;
        std::unordered_set<int64_t> allowed;
        if (auto failed = rows_of(found, &allowed)) return failed;
        hits.clear();
        for (const VectorHit& hit : found) {
            if (allowed.count(static_cast<int64_t>(hit.key)) != 0) hits.push_back(hit);
        }
        if (hits.size() >= wanted || found.size() < k) return std::nullopt;
    }
}

// Reads the live rows of `hits` that pass the filter into rows_ (their keys into *found).
std::optional<Outcome> Recall::rows_of(const std::vector<VectorHit>& hits, std::unordered_set<int64_t>* found) {
    if (hits.empty()) return std::nullopt;
    std::vector<int64_t> keys;
    keys.reserve(hits.size());
    for (const VectorHit& hit : hits) keys.push_back(static_cast<int64_t>(hit.key));
    mnemo_memory_keys_req req{};
    req.filter = args_.filter;
    req.keys = keys.data();
    req.n_keys = keys.size();
    storage::Collector collector;
    if (auto failed = call_memory_op(env_, env_.backend.ops().memory_keys, req, collector)) return failed;
    for (auto& row : collector.result().memories) {
        if (found != nullptr) found->insert(row.key);
        int64_t key = row.key;
        rows_.insert_or_assign(key, std::move(row));
    }
    return std::nullopt;
}

std::optional<Outcome> Recall::drop_vector_list() {
    mode_ = FusionMode::Keyword;
    vector_.clear();
    reembedding_.reset();
    return std::nullopt;
}

void Recall::note_reembedding() {
    reembedding_.reset();
    if (auto transition = env_.index->transition(app_)) {
        reembedding_ = ReembedNote{transition->from, transition->to, transition->remaining, query_vector_->size()};
    }
}

std::optional<Outcome> Recall::vector_list(int64_t depth) {
    if (mode_ == FusionMode::Keyword || env_.index == nullptr) return std::nullopt;
    note_reembedding();
    if (auto failed = check_dimension()) return failed;
    std::vector<VectorHit> hits;
    bool exact = false;
    if (!user_only(in_)) {
        if (auto failed = search_candidates(depth, hits, exact)) return failed;
    }
    if (!exact) {
        // A filter storage must decide starts wider: most of the user's memories may not pass it.
        size_t first_k = static_cast<size_t>(depth) * (user_only(in_) ? 1 : 4);
        if (auto failed = search_growing(first_k, depth, hits)) return failed;
    }
    if (keyword_only_) return drop_vector_list();
    note_reembedding();  // as the search found it, after its catch-up
    std::unordered_set<int64_t> live;
    if (exact) {
        if (auto failed = rows_of(hits, &live)) return failed;
    }
    for (const VectorHit& hit : hits) {
        auto key = static_cast<int64_t>(hit.key);
        if (exact && live.count(key) == 0) continue;
        vector_.push_back(candidate_of(rows_.at(key), hit.similarity));
    }
    return std::nullopt;
}

Outcome Recall::render(const std::vector<FusedHit>& fused) const {
    std::vector<RecallRow> rows;
    rows.reserve(fused.size());
    for (const FusedHit& hit : fused) {
        auto it = rows_.find(hit.key);
        if (it != rows_.end()) rows.push_back(RecallRow{&hit, &it->second});
    }
    std::string_view name = mode_ == FusionMode::Hybrid     ? "hybrid"
                            : mode_ == FusionMode::Semantic ? "semantic"
                                                            : "keyword";
    return Outcome::ok(render_recall(name, rows, reembedding_));
}

Outcome Recall::run() {
    if (auto failed = resolve_mode()) return *failed;
    bool hybrid = mode_ == FusionMode::Hybrid;
    if (auto failed = keyword_list(hybrid ? hybrid_keyword_depth(in_.limit) : in_.limit)) return *failed;
    if (auto failed = vector_list(hybrid ? hybrid_vector_depth(in_.limit) : in_.limit)) return *failed;
    auto fused = fuse(mode_, std::move(keyword_), std::move(vector_), in_.limit, in_.min_similarity);
    return render(fused);
}

}  // namespace

Outcome recall(const MemoryEnv& env, const std::string& app, const RecallInput& in) {
    if (!env.backend.memories()) return Outcome::fail(no_memories(env.backend));
    Recall call(env, app, in);
    return call.run();
}

}  // namespace mnemo::memory
