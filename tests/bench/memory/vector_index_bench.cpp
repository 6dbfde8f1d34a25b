// BENCH.md workload G for the vector index alone (no HTTP, no storage):
//   mnemo_bench_vector_index [N=200000] [queries=200] [index file=/tmp/mnemo_bench_vector.vix]
// N clustered unit vectors of 384 dims (seeded), 1,000 users. Prints build
// rate, app-wide search latency and recall@10 at ef 64/128/256, per-user
// search latency, save/load time and size, RSS per vector; every latency
// also as a ratio to the exact scan measured in the same run.
#include "clustered_vectors.h"
#include "memory/vector_index.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using mnemo::memory::VectorFilter;
using mnemo::memory::VectorHit;
using mnemo::memory::VectorIndex;
using mnemo::memory::VectorIndexOptions;
using namespace mnemo::bench;

std::vector<VectorHit> hits_of(const std::variant<std::vector<VectorHit>, mnemo::memory::VectorError>& answer) {
    if (auto* error = std::get_if<mnemo::memory::VectorError>(&answer)) {
        std::fprintf(stderr, "search refused: %s\n", error->message.c_str());
        std::exit(1);
    }
    return std::get<std::vector<VectorHit>>(answer);
}

double recall(const std::vector<VectorHit>& got, const std::vector<uint64_t>& want) {
    std::unordered_set<uint64_t> truth(want.begin(), want.end());
    size_t found = 0;
    for (const auto& hit : got) found += truth.count(hit.key);
    return want.empty() ? 1.0 : double(found) / double(want.size());
}

struct Exact {
    Latency app, user;
    std::vector<std::vector<uint64_t>> app_top, user_top;
};

Exact measure_exact(const Dataset& data, size_t queries) {
    Exact exact;
    for (size_t q = 0; q < queries; ++q) {
        auto start = Clock::now();
        exact.app_top.push_back(exact_top(data, data.query(q), SIZE_MAX));
        exact.app.ms.push_back(seconds_since(start) * 1e3);
        // Per user, the reference is the best case for a scan: it reads the user's rows only.
        start = Clock::now();
        exact.user_top.push_back(exact_top(data, data.query(q), q % kUsers));
        exact.user.ms.push_back(seconds_since(start) * 1e3);
    }
    return exact;
}

void measure_search(const VectorIndex& index, const Dataset& data, Exact& exact, size_t queries, size_t ef,
                    double exact_p50) {
    Latency latency;
    double recall_sum = 0;
    for (size_t q = 0; q < queries; ++q) {
        auto start = Clock::now();
        auto hits = hits_of(index.search(std::span(data.query(q), kDimension), kTopK));
        latency.ms.push_back(seconds_since(start) * 1e3);
        recall_sum += recall(hits, exact.app_top[q]);
    }
    double p50 = latency.percentile(0.5);
    std::printf("app-wide ef=%zu: recall@10 %.3f, p50 %.3f ms, p99 %.3f ms (exact scan p50 / p50 = %.1fx)\n", ef,
                recall_sum / double(queries), p50, latency.percentile(0.99), exact_p50 / p50);
}

void measure_users(const VectorIndex& index, const Dataset& data, Exact& exact, size_t queries) {
    Latency latency;
    double recall_sum = 0;
    for (size_t q = 0; q < queries; ++q) {
        VectorFilter filter;
        filter.user = user_of(q);
        auto start = Clock::now();
        auto hits = hits_of(index.search(std::span(data.query(q), kDimension), kTopK, filter));
        latency.ms.push_back(seconds_since(start) * 1e3);
        recall_sum += recall(hits, exact.user_top[q]);
    }
    double p50 = latency.percentile(0.5);
    std::printf(
        "per-user (%zu memories each): recall@10 %.3f, p50 %.3f ms, p99 %.3f ms (exact user scan p50 %.3f ms, "
        "app-wide exact p50 / p50 = %.1fx)\n",
        data.count / kUsers, recall_sum / double(queries), p50, latency.percentile(0.99), exact.user.percentile(0.5),
        exact.app.percentile(0.5) / p50);
}

}  // namespace

int main(int argc, char** argv) {
    size_t n = argc > 1 ? std::stoull(argv[1]) : 200'000;
    size_t queries = argc > 2 ? std::stoull(argv[2]) : 200;
    std::string path = argc > 3 ? argv[3] : "/tmp/mnemo_bench_vector.vix";
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    auto start = Clock::now();
    Dataset data = make_dataset(n, queries);
    std::printf("generated %zu vectors of %zu dims, %zu queries in %.1f s\n", n, kDimension, queries,
                seconds_since(start));
    Exact exact = measure_exact(data, queries);
    double exact_p50 = exact.app.percentile(0.5);
    std::printf("exact scan (C++ loop, one thread): p50 %.2f ms, p99 %.2f ms\n", exact_p50, exact.app.percentile(0.99));

    size_t rss_before = rss_bytes();
    VectorIndexOptions options;
    options.dimension = kDimension;
    auto index = std::make_unique<VectorIndex>(options);
    start = Clock::now();
    for (size_t i = 0; i < n; ++i) index->put(i, user_of(i), std::span(data.row(i), kDimension));
    double put_seconds = seconds_since(start);
    start = Clock::now();
    double cpu_before = cpu_seconds();
    index->build_some(SIZE_MAX, 2);
    double build_seconds = seconds_since(start);
    double build_cpu_seconds = cpu_seconds() - cpu_before;
    size_t rss_after = rss_bytes();
    std::printf(
        "put %.0f vectors/s into the tail; build %.0f vectors/s into the graph (2 threads, %.1f s wall, %.0f "
        "vectors per CPU-second)\n",
        double(n) / put_seconds, double(n) / build_seconds, build_seconds, double(n) / build_cpu_seconds);
    std::printf("index RSS %.0f MiB: %.0f bytes per memory (the vector alone is %zu)\n",
                double(rss_after - rss_before) / 1048576.0, double(rss_after - rss_before) / double(n),
                kDimension * sizeof(float));

    for (size_t ef : {64, 128, 256}) {
        index->set_ef_search(ef);
        measure_search(*index, data, exact, queries, ef, exact_p50);
    }
    index->set_ef_search(options.ef_search);
    measure_users(*index, data, exact, queries);

    start = Clock::now();
    if (auto failure = index->save(path, 1)) {
        std::fprintf(stderr, "%s\n", failure->message.c_str());
        return 1;
    }
    double save_seconds = seconds_since(start);
    auto answer_before = hits_of(index->search(std::span(data.query(0), kDimension), kTopK));
    index.reset();
    size_t rss_unloaded = rss_bytes();
    start = Clock::now();
    auto loaded = VectorIndex::load(path, options);
    if (auto* failure = std::get_if<mnemo::memory::VectorError>(&loaded)) {
        std::fprintf(stderr, "%s\n", failure->message.c_str());
        return 1;
    }
    auto restored = std::move(std::get<VectorIndex::Loaded>(loaded).index);
    double load_seconds = seconds_since(start);
    auto answer_after = hits_of(restored->search(std::span(data.query(0), kDimension), kTopK));
    double first_answer_seconds = seconds_since(start);
    std::printf(
        "save %.2f s, file %.0f MiB; load %.2f s, first answer after %.2f s (%s), loaded RSS %.0f bytes per "
        "memory\n",
        save_seconds, double(std::filesystem::file_size(path)) / 1048576.0, load_seconds, first_answer_seconds,
        answer_before == answer_after ? "same answer" : "DIFFERENT ANSWER",
        double(rss_bytes() - rss_unloaded) / double(n));
    std::filesystem::remove(path);
    return answer_before == answer_after ? 0 : 1;
}
