// BENCH.md workload G for the vector index alone (no HTTP, no storage):
//   mnemo_bench_vector_index [N=200000] [queries=200] [index file=/tmp/mnemo_bench_vector.vix]
// N clustered unit vectors of 384 dims (seeded), 1,000 users. Prints build
// rate, app-wide search latency and recall@10 at ef 64/128/256, per-user
// search latency, save/load time and size, RSS per vector; every latency
// also as a ratio to the exact scan measured in the same run.
#include "memory/vector_index.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using mnemo::memory::VectorFilter;
using mnemo::memory::VectorHit;
using mnemo::memory::VectorIndex;
using mnemo::memory::VectorIndexOptions;
using Clock = std::chrono::steady_clock;

constexpr size_t kDimension = 384;
constexpr size_t kUsers = 1000;
constexpr size_t kTopK = 10;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// On a shared machine the wall clock depends on the neighbours; CPU time does not.
double cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

size_t rss_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

// Unit vectors around 2,000 random centers: neighbours share a topic, as embeddings do.
struct Dataset {
    std::vector<float> vectors;  // n rows of kDimension
    std::vector<float> queries;
    size_t count = 0;
    const float* row(size_t i) const { return &vectors[i * kDimension]; }
    const float* query(size_t i) const { return &queries[i * kDimension]; }
};

void normalize(float* values) {
    double squares = 0;
    for (size_t d = 0; d < kDimension; ++d) squares += double(values[d]) * values[d];
    auto scale = float(1.0 / std::sqrt(squares));
    for (size_t d = 0; d < kDimension; ++d) values[d] *= scale;
}

Dataset make_dataset(size_t n, size_t queries) {
    std::mt19937_64 rng(2026);
    std::normal_distribution<float> normal;
    std::vector<float> centers(2000 * kDimension);
    for (float& value : centers) value = normal(rng);
    Dataset data;
    data.count = n;
    auto scatter = [&](std::vector<float>& out, size_t rows, float spread) {
        out.resize(rows * kDimension);
        for (size_t i = 0; i < rows; ++i) {
            const float* center = &centers[(rng() % 2000) * kDimension];
            float* row = &out[i * kDimension];
            for (size_t d = 0; d < kDimension; ++d) row[d] = center[d] + spread * normal(rng);
            normalize(row);
        }
    };
    scatter(data.vectors, n, 0.6f);
    scatter(data.queries, queries, 0.6f);
    return data;
}

std::string user_of(size_t i) {
    return "user" + std::to_string(i % kUsers);
}

// Eight running sums let the compiler use SIMD without reordering one sum.
float dot(const float* a, const float* b) {
    float sums[8] = {};
    for (size_t d = 0; d < kDimension; d += 8) {
        for (size_t lane = 0; lane < 8; ++lane) sums[lane] += a[d + lane] * b[d + lane];
    }
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

// The reference: a plain C++ loop over every vector (or every vector of one user).
std::vector<uint64_t> exact_top(const Dataset& data, const float* query, size_t user_or_all) {
    std::vector<std::pair<float, uint64_t>> best;
    for (size_t i = 0; i < data.count; ++i) {
        if (user_or_all != SIZE_MAX && i % kUsers != user_or_all) continue;
        std::pair<float, uint64_t> hit{dot(query, data.row(i)), i};
        if (best.size() < kTopK) {
            best.push_back(hit);
            std::push_heap(best.begin(), best.end(), std::greater<>());
        } else if (hit > best.front()) {
            std::pop_heap(best.begin(), best.end(), std::greater<>());
            best.back() = hit;
            std::push_heap(best.begin(), best.end(), std::greater<>());
        }
    }
    std::vector<uint64_t> keys;
    for (auto& [similarity, key] : best) keys.push_back(key);
    return keys;
}

struct Latency {
    std::vector<double> ms;
    double percentile(double p) {
        std::sort(ms.begin(), ms.end());
        return ms.empty() ? 0 : ms[std::min(ms.size() - 1, size_t(p * double(ms.size())))];
    }
};

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
