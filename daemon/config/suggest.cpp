// Spelling suggestions for unknown keys.
#include <algorithm>
#include <numeric>

#include "config/diagnostics.h"

namespace mnemo::config {
namespace {

constexpr size_t kMaxDistance = 2;

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), 0);
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string nearest_key(std::string_view key, const std::vector<std::string_view>& known) {
    std::string best;
    size_t best_distance = kMaxDistance + 1;
    for (std::string_view candidate : known) {
        size_t distance = edit_distance(key, candidate);
        if (distance < best_distance) {
            best_distance = distance;
            best = std::string(candidate);
        }
    }
    return best;
}

}  // namespace mnemo::config
