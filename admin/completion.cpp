#include "completion.h"

#include <algorithm>

namespace mnemo::admin {

std::vector<std::string> completions(std::string_view word, const std::vector<std::string>& names) {
    std::vector<std::string> matches;
    for (const auto& name : names) {
        if (name.size() >= word.size() && std::string_view(name).substr(0, word.size()) == word) {
            matches.push_back(name);
        }
    }
    std::sort(matches.begin(), matches.end());
    matches.erase(std::unique(matches.begin(), matches.end()), matches.end());
    return matches;
}

}  // namespace mnemo::admin
