#include "search_tokens.h"

#include "host_services.h"

#include <unordered_set>

namespace mnemo::mysql::search_tokens {

std::string token(std::string_view folded_word) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string_view kept = folded_word.substr(0, kTokenWordBytes);
    std::string out = "w";
    out.reserve(1 + 2 * kept.size());
    for (unsigned char byte : kept) {
        out.push_back(kHex[byte >> 4]);
        out.push_back(kHex[byte & 15]);
    }
    return out;
}

std::string tokens_of(std::string_view search_text) {
    namespace sw = host;
    std::unordered_set<std::string> seen;
    std::string out;
    sw::for_each_word(search_text, [&](size_t begin, size_t end) {
        std::string next = token(sw::fold(search_text.substr(begin, end - begin)));
        if (!seen.insert(next).second) return;
        if (!out.empty()) out.push_back(' ');
        out += next;
    });
    return out;
}

}  // namespace mnemo::mysql::search_tokens
