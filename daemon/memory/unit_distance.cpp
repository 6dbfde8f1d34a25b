#include "memory/unit_distance.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mnemo::memory {
namespace {

size_t dimension_of(const void* param) {
    return *static_cast<const size_t*>(param);
}

// Eight running sums let the compiler keep them in one SSE pair without
// reassociating (which -O2 will not do for floats).
float portable_distance(const void* a_ptr, const void* b_ptr, const void* param) {
    const auto* a = static_cast<const float*>(a_ptr);
    const auto* b = static_cast<const float*>(b_ptr);
    size_t n = dimension_of(param);
    float sums[8] = {};
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (size_t lane = 0; lane < 8; ++lane) sums[lane] += a[i + lane] * b[i + lane];
    }
    float dot = ((sums[0] + sums[4]) + (sums[1] + sums[5])) + ((sums[2] + sums[6]) + (sums[3] + sums[7]));
    for (; i < n; ++i) dot += a[i] * b[i];
    return 1.0f - dot;
}

#if defined(__x86_64__)

__attribute__((target("avx2,fma"))) float avx2_distance(const void* a_ptr, const void* b_ptr, const void* param) {
    const auto* a = static_cast<const float*>(a_ptr);
    const auto* b = static_cast<const float*>(b_ptr);
    size_t n = dimension_of(param);
    // Two accumulators hide the fused multiply-add's latency.
    __m256 sum0 = _mm256_setzero_ps();
    __m256 sum1 = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        sum0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), sum0);
        sum1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), sum1);
    }
    if (i + 8 <= n) {
        sum0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), sum0);
        i += 8;
    }
    __m256 sum = _mm256_add_ps(sum0, sum1);
    __m128 half = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
    half = _mm_add_ps(half, _mm_movehl_ps(half, half));
    half = _mm_add_ss(half, _mm_movehdup_ps(half));
    float dot = _mm_cvtss_f32(half);
    for (; i < n; ++i) dot += a[i] * b[i];
    return 1.0f - dot;
}

__attribute__((target("avx512f"))) float avx512_distance(const void* a_ptr, const void* b_ptr, const void* param) {
    const auto* a = static_cast<const float*>(a_ptr);
    const auto* b = static_cast<const float*>(b_ptr);
    size_t n = dimension_of(param);
    __m512 sum0 = _mm512_setzero_ps();
    __m512 sum1 = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        sum0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), sum0);
        sum1 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16), sum1);
    }
    if (i + 16 <= n) {
        sum0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), sum0);
        i += 16;
    }
    // The last 1-15 floats through a mask: no scalar loop, no read past the end.
    if (i < n) {
        auto mask = static_cast<__mmask16>((1u << (n - i)) - 1);
        sum1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, a + i), _mm512_maskz_loadu_ps(mask, b + i), sum1);
    }
    // Through memory, not _mm512_reduce_add_ps: GCC 12's expansion of it
    // trips -Wuninitialized, and sixteen adds once per vector cost nothing.
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, _mm512_add_ps(sum0, sum1));
    float dot = 0;
    for (float lane : lanes) dot += lane;
    return 1.0f - dot;
}

#endif

}  // namespace

std::vector<UnitDistanceKind> unit_distances_this_cpu_runs() {
    std::vector<UnitDistanceKind> kinds;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) kinds.push_back({avx512_distance, "avx512"});
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) kinds.push_back({avx2_distance, "avx2"});
#endif
    kinds.push_back({portable_distance, "portable"});
    return kinds;
}

UnitDistanceKind fastest_unit_distance() {
    static const UnitDistanceKind fastest = unit_distances_this_cpu_runs().front();
    return fastest;
}

}  // namespace mnemo::memory
