// word_tokenizer.h -- the tokenizer of events_words (unicode61, diacritics
// removed, word_separators.h as separators: migration v5), made through a
// connection's FTS5 API so search can ask it what FTS5 will make of a
// phrase: an FTS5 phrase with no token matches nothing, so a query phrase
// the tokenizer finds no token in cannot narrow the candidates.
#pragma once

#include "connection.h"

#include <string>
#include <string_view>

namespace mnemo::sqlite {

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

// The tokenizer arguments of events_words, as migration v5 writes them.
extern const char* const kWordTokenizerArgs[4];

class WordTokenizer {
public:
    explicit WordTokenizer(Conn& conn);  // throws StoreError when FTS5 is missing
    ~WordTokenizer();
    WordTokenizer(const WordTokenizer&) = delete;
    WordTokenizer& operator=(const WordTokenizer&) = delete;

    // How many tokens a query holding text gives.
    size_t count(std::string_view text) const;

private:
    fts5_tokenizer module_{};
    Fts5Tokenizer* tokenizer_ = nullptr;
};

}  // namespace mnemo::sqlite
