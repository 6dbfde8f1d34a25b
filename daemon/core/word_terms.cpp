// The terms of search (core/search_words.h): Snowball English stems of
// Latin-script words, and the English stop words a query leaves out.
#include "core/search_words.h"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <unordered_map>

namespace mnemo::core::search_words {
namespace {

// The classic English stop list of information retrieval (the one NLTK
// ships, less its contractions' fragments): function words that carry no
// topic. A query keeps them only when it has no other word.
constexpr std::array<std::string_view, 126> kStopWords = {
    "a",       "about",    "above",   "after",     "again",    "against", "all",        "am",    "an",
    "and",     "any",      "are",     "as",        "at",       "be",      "because",    "been",  "before",
    "being",   "below",    "between", "both",      "but",      "by",      "can",        "could", "did",
    "do",      "does",     "doing",   "down",      "during",   "each",    "few",        "for",   "from",
    "further", "had",      "has",     "have",      "having",   "he",      "her",        "here",  "hers",
    "herself", "him",      "himself", "his",       "how",      "i",       "if",         "in",    "into",
    "is",      "it",       "its",     "itself",    "just",     "me",      "more",       "most",  "my",
    "myself",  "no",       "nor",     "not",       "now",      "of",      "off",        "on",    "once",
    "only",    "or",       "other",   "our",       "ours",     "ourselves", "out",      "over",  "own",
    "same",    "she",      "should",  "so",        "some",     "such",    "than",       "that",  "the",
    "their",   "theirs",   "them",    "themselves", "then",    "there",   "these",      "they",  "this",
    "those",   "through",  "to",      "too",       "under",    "until",   "up",         "very",  "was",
    "we",      "were",     "what",    "when",      "where",    "which",   "while",      "who",   "whom",
    "why",     "will",     "with",    "would",     "you",      "your",    "yours",      "yourself", "yourselves",
};

// Latin script after folding: ASCII letters and digits, and the Latin
// letters folding keeps (ß, æ, ø, þ and the Latin Extended blocks).
bool is_latin_word(std::string_view folded) {
    for (size_t pos = 0; pos < folded.size();) {
        CodePoint cp = decode(folded, pos);
        if (cp.value >= 0x80 && !(cp.value >= 0xC0 && cp.value <= 0x24F)) return false;
        pos += cp.length;
    }
    return true;
}

struct StemmerDeleter {
    void operator()(sb_stemmer* stemmer) const { sb_stemmer_delete(stemmer); }
};

// A Snowball stemmer is not safe to share between threads; each thread that
// stems keeps its own.
sb_stemmer* english_stemmer() {
    thread_local std::unique_ptr<sb_stemmer, StemmerDeleter> stemmer(sb_stemmer_new("english", nullptr));
    return stemmer.get();
}

}  // namespace

bool is_stop_word(std::string_view folded_word) {
    return std::find(kStopWords.begin(), kStopWords.end(), folded_word) != kStopWords.end();
}

std::string stem(std::string_view folded_word) {
    if (folded_word.empty() || !is_latin_word(folded_word)) return std::string(folded_word);
    // A text's words repeat (a language has a few thousand common ones) and
    // Snowball costs several times a lookup: each thread remembers the stems
    // it made, and starts afresh past kRemembered words.
    constexpr size_t kRemembered = 1 << 16;
    thread_local std::unordered_map<std::string, std::string> remembered;
    std::string key(folded_word);
    if (auto it = remembered.find(key); it != remembered.end()) return it->second;
    sb_stemmer* stemmer = english_stemmer();
    if (stemmer == nullptr) return key;
    const sb_symbol* stemmed =
        sb_stemmer_stem(stemmer, reinterpret_cast<const sb_symbol*>(key.data()), static_cast<int>(key.size()));
    if (stemmed == nullptr) return key;
    std::string out(reinterpret_cast<const char*>(stemmed), static_cast<size_t>(sb_stemmer_length(stemmer)));
    if (remembered.size() >= kRemembered) remembered.clear();
    remembered.emplace(std::move(key), out);
    return out;
}

bool is_possessive_s(std::string_view text, size_t begin, size_t end) {
    if (end != begin + 1 || (text[begin] != 's' && text[begin] != 'S') || begin < 2) return false;
    if (text[begin - 1] == '\'') return is_word_char(decode(text, begin - 2).value);
    constexpr std::string_view kRightQuote = "\u2019";
    if (begin < kRightQuote.size() + 1 || text.substr(begin - kRightQuote.size(), kRightQuote.size()) != kRightQuote)
        return false;
    const size_t before = begin - kRightQuote.size() - 1;
    const auto byte = static_cast<unsigned char>(text[before]);
    return (byte & 0x80) == 0 && is_word_char(byte);
}

std::string term(std::string_view word) {
    if (has_cjk(word)) return {};
    return stem(fold(word));
}

}  // namespace mnemo::core::search_words
