// term_documents.h -- how many events (of every app) hold each term, as the
// bounded search plan weighs a term (ops_search.cpp), kept per connection
// while the index stays the same.
//
// Counting a common term's holders reads its whole list in events_words
// (100,000 rows at 1,000,000 events): most of a natural question's time
// when each of its five words is that common. The counts only change when
// the index does, and every write to events_words rewrites its structure
// record (FTS5's row 10 of events_words_data: its segments and a counter
// of segments written, which only grows), so a count is reused for as long
// as that record reads the same in the search's snapshot. The counts come
// from fts5vocab (temp.events_words_terms, made when the connection opens):
// the same number as count(*) of the term's MATCH, read without a row per
// holder.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace mnemo::sqlite {

class Conn;

class TermDocuments {
public:
    // The statement Conn runs once it is open: the vocabulary table.
    static const char* const kVocabularySql;

    // The events holding each term (host terms, as events_words holds them).
    std::vector<double> of(Conn& conn, const std::vector<std::string>& terms);

private:
    std::string structure_;  // events_words' structure record the counts were read under
    std::unordered_map<std::string, double> counts_;
};

}  // namespace mnemo::sqlite
