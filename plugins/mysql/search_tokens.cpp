#include "search_tokens.h"

#include "host_services.h"

#include <unordered_set>

namespace mnemo::mysql::search_tokens {

std::string token(std::string_view term) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string_view kept = term.substr(0, kTokenTermBytes);
    std::string out = "w";
    out.reserve(1 + 2 * kept.size());
    for (unsigned char byte : kept) {
        out.push_back(kHex[byte >> 4]);
        out.push_back(kHex[byte & 15]);
    }
    return out;
}

std::string tokens_of(std::string_view text, int64_t* terms) {
    std::unordered_set<std::string> seen;
    std::string out;
    int64_t count = 0;
    host::for_each_term(text, [&](size_t, size_t, std::string_view term) {
        ++count;
        std::string next = token(term);
        if (!seen.insert(next).second) return;
        if (!out.empty()) out.push_back(' ');
        out += next;
    });
    if (terms) *terms = count;
    return out;
}

}  // namespace mnemo::mysql::search_tokens
