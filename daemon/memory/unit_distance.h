#pragma once
// The distance the vector graph ranks by: one minus the dot product of two
// unit vectors (cosine distance), in hnswlib's distance signature so the
// graph calls it directly, with no second indirection per comparison.
//
// hnswlib picks its AVX and AVX-512 loops only when the whole translation
// unit is compiled for them, which a package built for every x86-64 cannot
// be; so mnemod compiles its own loops per instruction set and picks the
// widest this CPU runs, once, at start. Linking and searching are bound by
// this function (two thirds of a catch-up's cycles in profiles).

#include <cstddef>
#include <vector>

namespace mnemo::memory {

// a and b point to *static_cast<const size_t*>(dimension) floats each.
using UnitDistance = float (*)(const void* a, const void* b, const void* dimension);

struct UnitDistanceKind {
    UnitDistance distance = nullptr;
    const char* name = "";  // "avx512", "avx2", "portable": for the start-up log
};

// The widest variant this CPU runs.
UnitDistanceKind fastest_unit_distance();

// Every variant this CPU runs, widest first: tests hold them to one answer.
std::vector<UnitDistanceKind> unit_distances_this_cpu_runs();

}  // namespace mnemo::memory
