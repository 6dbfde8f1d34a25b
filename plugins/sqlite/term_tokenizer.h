// term_tokenizer.h -- the FTS5 tokenizer "mnemo" of events_words and
// memories_words (migrations.h, kHostTermsVersion): a document's tokens are
// its host terms (mnemo_host.terms: folded words, Snowball-stemmed in Latin
// script; words holding CJK have none), with their byte offsets, so the
// index holds exactly what search and recall match and BM25 counts. A
// query string (FTS5_TOKENIZE_QUERY) is one token as written: the plugin
// only ever puts host terms in a MATCH expression, each its own FTS5
// string, and a term is not stemmed twice (Snowball is not idempotent).
//
// FTS5 keeps a tokenizer per connection: every connection of the plugin
// (the writer and each reader) registers it before it touches an index
// (Conn's constructor). A tool opening the file without the plugin can read
// every table but those two indexes.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

namespace mnemo::sqlite {

inline constexpr const char* kTermTokenizerName = "mnemo";

// An FTS5 string: the text in double quotes, inner quotes doubled (one
// phrase of a MATCH expression).
inline std::string fts5_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

// Registers "mnemo" and the auxiliary function mnemo_counts on db; false
// when the SQLite in use has no FTS5. The host's services must be installed
// (host::install) before a document is tokenized.
bool register_term_tokenizer(sqlite3* db);

// mnemo_counts(<table>) in a MATCH query: the row's counts as the index
// holds them, in sql/search_hits.h's IndexCounts layout (the index's rows,
// the row's tokens: its length in host terms, then each phrase's
// occurrences in the row in the expression's order: a phrase of one term,
// its tf). Search reads BM25's numbers from it instead of tokenizing the
// text again.
inline constexpr const char* kCountsFunction = "mnemo_counts";

}  // namespace mnemo::sqlite
