// term_list.h -- a text's host terms kept beside it (the SQL backends'
// memories.terms column), so ranking a stored document needs no second
// tokenizing: the terms in text order, repeats included, joined by single
// spaces (a term never holds a space: the host splits words on it).
// BM25's length of the document is the number of entries.
#pragma once

#include "host_services.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::host {

// The term list of text; *length takes its number of terms.
inline std::string term_list(std::string_view text, int64_t* length) {
    std::string list;
    int64_t count = 0;
    for_each_term(text, [&](size_t, size_t, std::string_view term) {
        if (!list.empty()) list += ' ';
        list += term;
        ++count;
    });
    *length = count;
    return list;
}

// Calls fn(term) for each entry of a term list, in order.
template <typename Fn>
void for_each_listed_term(std::string_view list, Fn&& fn) {
    size_t begin = 0;
    while (begin < list.size()) {
        size_t end = list.find(' ', begin);
        if (end == std::string_view::npos) end = list.size();
        if (end > begin) fn(list.substr(begin, end - begin));
        begin = end + 1;
    }
}

// How often each of terms occurs in the list (terms' order), into tf (its
// buffer reused); *length takes the list's number of entries.
inline void count_listed(std::string_view list, const std::vector<std::string>& terms, std::vector<uint32_t>& tf,
                         uint32_t* length) {
    tf.assign(terms.size(), 0);
    uint32_t count = 0;
    for_each_listed_term(list, [&](std::string_view entry) {
        ++count;
        // A user's recall reads every memory's list: most entries differ from
        // a term in length or first letter, which settles them without memcmp.
        for (size_t t = 0; t < terms.size(); ++t) {
            const std::string& term = terms[t];
            if (entry.size() == term.size() && entry.front() == term.front() && entry == term) ++tf[t];
        }
    });
    *length = count;
}

inline std::vector<uint32_t> listed_frequencies(std::string_view list, const std::vector<std::string>& terms,
                                                uint32_t* length) {
    std::vector<uint32_t> tf;
    count_listed(list, terms, tf, length);
    return tf;
}

// Whether the list holds every one of terms.
inline bool lists_all(std::string_view list, const std::vector<std::string>& terms) {
    uint32_t length = 0;
    for (uint32_t n : listed_frequencies(list, terms, &length))
        if (n == 0) return false;
    return true;
}

}  // namespace mnemo::host
