// Reads the names a reference page in docs/ documents: the backticked items
// of its "### " headings, with {a,b} alternatives expanded.
#pragma once

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace mnemo::docs_testing {

inline std::string read_doc(const std::string& relative) {
    std::ifstream in(std::string(MNEMO_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// "a.{b,c}.d" -> "a.b.d", "a.c.d" (any number of brace groups, not nested).
inline std::vector<std::string> expand_braces(const std::string& pattern) {
    size_t open = pattern.find('{');
    size_t close = open == std::string::npos ? std::string::npos : pattern.find('}', open);
    if (close == std::string::npos) return {pattern};
    std::vector<std::string> out;
    std::string head = pattern.substr(0, open);
    std::string alternatives = pattern.substr(open + 1, close - open - 1) + ",";
    for (size_t start = 0, comma; (comma = alternatives.find(',', start)) != std::string::npos; start = comma + 1) {
        for (const std::string& tail : expand_braces(pattern.substr(close + 1)))
            out.push_back(head + alternatives.substr(start, comma - start) + tail);
    }
    return out;
}

// Every backticked item of every line starting with "### ", expanded when `expand` is set.
inline std::vector<std::string> heading_items(const std::string& markdown, bool expand) {
    std::vector<std::string> items;
    std::istringstream lines(markdown);
    bool in_fence = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("```")) in_fence = !in_fence;
        if (in_fence || !line.starts_with("### ")) continue;
        for (size_t open = line.find('`'); open != std::string::npos; open = line.find('`', open)) {
            size_t close = line.find('`', open + 1);
            if (close == std::string::npos) break;
            std::string item = line.substr(open + 1, close - open - 1);
            if (!expand) items.push_back(item);
            for (std::string& each : expand ? expand_braces(item) : std::vector<std::string>{})
                items.push_back(std::move(each));
            open = close + 1;
        }
    }
    return items;
}

// The names of `a` that are not in `b`.
inline std::set<std::string> minus(const std::set<std::string>& a, const std::set<std::string>& b) {
    std::set<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
}

inline std::string listed(const std::set<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += "  " + name + "\n";
    return text;
}

}  // namespace mnemo::docs_testing
