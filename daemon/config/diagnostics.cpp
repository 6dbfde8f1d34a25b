#include "config/diagnostics.h"

#include <algorithm>

namespace mnemo::config {

void Diagnostics::add(const Place& place, std::string_view message) {
    // Built with append(): GCC 12 at -O3 warns falsely (-Wrestrict) on chained operator+.
    std::string text = display_name_;
    if (place.mark.line >= 0) {
        text.append(":").append(std::to_string(place.mark.line + 1));
        text.append(":").append(std::to_string(place.mark.column + 1));
    }
    text.append(": ");
    if (!place.path.empty()) text.append(place.path).append(": ");
    text.append(message);
    entries_.push_back({place.mark.line, place.mark.column, std::move(text)});
}

void Diagnostics::add_unplaced(std::string message) {
    entries_.push_back({-1, -1, std::move(message)});
}

std::vector<std::string> Diagnostics::sorted() const {
    std::vector<Entry> entries = entries_;
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    std::vector<std::string> texts;
    for (Entry& entry : entries) texts.push_back(std::move(entry.text));
    return texts;
}

}  // namespace mnemo::config
