#include "search_terms.h"

#include "host_services.h"

#include <unordered_set>

namespace mnemo::postgres::search_terms {
namespace {

// Appends value with each of `specials` preceded by a backslash (the
// escape of both array and tsquery literals).
void append_escaped(std::string& out, std::string_view value, std::string_view specials) {
    for (char c : value) {
        if (specials.find(c) != std::string_view::npos) out.push_back('\\');
        out.push_back(c);
    }
}

}  // namespace

std::string_view lexeme(std::string_view term) {
    if (term.size() <= kLexemeBytes) return term;
    size_t end = kLexemeBytes;
    // Back to the first byte of a UTF-8 sequence: the cut stays valid text.
    while (end > 0 && (static_cast<unsigned char>(term[end]) & 0xC0) == 0x80) --end;
    return term.substr(0, end);
}

std::string lexeme_array(std::string_view text, int64_t* terms) {
    std::unordered_set<std::string> seen;
    std::string out = "{";
    int64_t count = 0;
    host::for_each_term(text, [&](size_t, size_t, std::string_view term) {
        ++count;
        std::string_view kept = lexeme(term);
        if (!seen.emplace(kept).second) return;
        if (out.size() > 1) out.push_back(',');
        out.push_back('"');
        append_escaped(out, kept, "\"\\");
        out.push_back('"');
    });
    if (terms) *terms = count;
    return out + "}";
}

std::string tsquery(const std::vector<std::string>& terms, bool all) {
    std::string out;
    for (const std::string& term : terms) {
        if (!out.empty()) out += all ? " & " : " | ";
        out.push_back('\'');
        append_escaped(out, lexeme(term), "'\\");
        out.push_back('\'');
    }
    return out;
}

}  // namespace mnemo::postgres::search_terms
