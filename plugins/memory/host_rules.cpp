#include "host_rules.h"

#include "core/json_equal.h"
#include "core/search_words.h"

#include <algorithm>
#include <map>

namespace mnemo::memory {

namespace sw = core::search_words;

std::vector<TermCount> count_terms(std::string_view text, uint32_t* word_count) {
    std::map<std::string, uint32_t> counts;
    uint32_t words = 0;
    sw::for_each_word(text, [&](size_t begin, size_t end) {
        ++counts[sw::fold(text.substr(begin, end - begin))];
        ++words;
    });
    *word_count = words;
    return std::vector<TermCount>(counts.begin(), counts.end());
}

RecallQuery read_query(std::string_view q) {
    sw::Query parsed = sw::parse_query(q);
    RecallQuery query;
    if (parsed.kind == sw::QueryKind::Words) {
        query.words = std::move(parsed.words);
    } else if (parsed.kind == sw::QueryKind::Exact) {
        query.exact = true;
        query.verbatim = std::move(parsed.exact);
        // Its words weigh the ranking; a repeated word counts once, as in a Words query.
        const std::string_view verbatim = query.verbatim;
        sw::for_each_word(verbatim, [&](size_t begin, size_t end) {
            std::string folded = sw::fold(verbatim.substr(begin, end - begin));
            if (begin > 0 && end < verbatim.size()) query.whole_words.push_back(folded);
            if (std::find(query.words.begin(), query.words.end(), folded) == query.words.end())
                query.words.push_back(std::move(folded));
        });
    }
    return query;
}

bool holds_verbatim(std::string_view text, std::string_view verbatim) {
    return sw::find_ascii_icase(text, verbatim) != std::string_view::npos;
}

bool member_equals(std::string_view object_json, std::string_view key, std::string_view value_json) {
    return core::json_member_equals(object_json, key, value_json);
}

}  // namespace mnemo::memory
