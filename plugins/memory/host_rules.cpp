#include "host_rules.h"

#include <algorithm>
#include <map>

namespace mnemo::memory {

std::vector<TermCount> count_terms(std::string_view text, uint32_t* word_count) {
    std::map<std::string, uint32_t> counts;
    uint32_t words = 0;
    host::for_each_word(text, [&](size_t begin, size_t end) {
        ++counts[host::fold(text.substr(begin, end - begin))];
        ++words;
    });
    *word_count = words;
    return std::vector<TermCount>(counts.begin(), counts.end());
}

RecallQuery read_query(std::string_view q) {
    RecallQuery query;
    query.parsed = host::parse_query(q);
    if (query.parsed.kind == host::QueryKind::Words) {
        query.words = query.parsed.words;
    } else if (query.parsed.kind == host::QueryKind::Exact) {
        query.exact = true;
        // Its words weigh the ranking; a repeated word counts once, as in a Words query.
        const std::string_view verbatim = query.parsed.exact;
        host::for_each_word(verbatim, [&](size_t begin, size_t end) {
            std::string folded = host::fold(verbatim.substr(begin, end - begin));
            if (begin > 0 && end < verbatim.size()) query.whole_words.push_back(folded);
            if (std::find(query.words.begin(), query.words.end(), folded) == query.words.end())
                query.words.push_back(std::move(folded));
        });
    }
    return query;
}

bool holds_verbatim(std::string_view text, const RecallQuery& query) {
    return host::matches(query.parsed, text);
}

bool member_equals(std::string_view object_json, std::string_view key, std::string_view value_json) {
    return host::json_member_equals(object_json, key, value_json);
}

}  // namespace mnemo::memory
