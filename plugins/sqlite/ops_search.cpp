// Search (mnemo_search_req) over the FTS5 indexes of migration v5:
//  - word queries: every word as a term of events_words (bm25);
//  - exact queries: q from the end of its first word (which may end a longer
//    word of the text) as an FTS5 phrase of events_words, its last word a
//    prefix (it may begin a longer word) or, when two whole words come before
//    it, left out (an FTS5 prefix term merges the lists of every word it
//    begins: `conf*` cost /etc/nginx/nginx.conf 17 of its 24 ms over
//    1,000,000 events, and the phrase without it found the same 509 events);
//    events_words splits where the search rules do (word_separators.h), so
//    every event holding q matches;
//  - exact queries holding a CJK character (whose words run without spaces):
//    events_trigrams, which holds exactly the events with CJK text, or a scan
//    of those events (events_trigram_rows) when q has fewer than 3
//    characters, which a trigram cannot hold;
//  - exact queries that leave no word to narrow by (`()`, `-n`, `onfig_`): a
//    scan of the app's events.
// Every indexed plan also reads the unindexed tail (search_backlog.h) in the
// same statement, so in the same snapshot as the mark: the indexes hold the
// events at or below the mark, the tail the ones above it. The scans read
// every event already.
// The core verifies and groups the candidates (search_hits.h); sessions
// rank by their best bm25, tail hits ahead of them all (kSearchTailRank).
#include "hot_queries.h"
#include "ops.h"
#include "search_hits.h"
#include "word_tokenizer.h"

#include <tuple>

namespace mnemo::sqlite {
namespace {

namespace sw = host;

std::string fts_sql(const char* table, const char* tail_extra = "") {
    return std::string("SELECT e.sid, e.seq, bm25(") + table + "), s.updated_at, s.id, e.search_text FROM " + table +
           " JOIN events e ON e.rowid = " + table + ".rowid JOIN sessions s ON s.sid = e.sid WHERE " + table +
           " MATCH ?1" + kSearchFilters + " UNION ALL " + search_tail_sql(tail_extra);
}

std::string scan_sql() {
    return std::string(
               "SELECT e.sid, e.seq, 0.0, s.updated_at, s.id, e.search_text FROM sessions s JOIN events e ON "
               "e.sid = s.sid WHERE instr(lower(e.search_text), lower(?1)) > 0") +
           kSearchFilters;
}

// The events with CJK text only, through their partial index.
std::string cjk_scan_sql() {
    return std::string(
               "SELECT e.sid, e.seq, 0.0, s.updated_at, s.id, e.search_text FROM events e INDEXED BY "
               "events_trigram_rows JOIN sessions s ON s.sid = e.sid WHERE e.search_trigrams = 1 AND "
               "instr(lower(e.search_text), lower(?1)) > 0") +
           kSearchFilters;
}

// A prefix term shorter than this (in bytes) matches too many words to narrow.
constexpr size_t kMinPrefixBytes = 3;

size_t chars_in(std::string_view text) {
    size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// The phrase of events_words every event holding the exact query q
// matches, "" when none narrows: q from the end of its first word, the last
// word a prefix term (left out when short, or when two whole words narrow
// already), and at least one token left.
std::string words_phrase(Conn& conn, std::string_view q) {
    size_t first_end = 0, last_begin = 0;
    bool ends_in_word = false;
    sw::for_each_word(q, [&](size_t begin, size_t end) {
        if (begin == 0) first_end = end;
        last_begin = begin;
        ends_in_word = end == q.size();
    });
    WordTokenizer tokens(conn);
    bool prefix = ends_in_word && last_begin > 0;  // then last_begin >= first_end
    size_t phrase_end = q.size();
    if (prefix &&
        (q.size() - last_begin < kMinPrefixBytes || tokens.count(q.substr(first_end, last_begin - first_end)) >= 2)) {
        phrase_end = last_begin;
        prefix = false;
    }
    if (phrase_end <= first_end) return "";
    std::string_view phrase = q.substr(first_end, phrase_end - first_end);
    if (tokens.count(phrase) == 0) return "";
    return fts5_string(phrase) + (prefix ? "*" : "");
}

// The statement and its first parameter for the query's kind.
SearchPlan plan(Conn& conn, const sw::Query& query) {
    if (query.kind == sw::QueryKind::Words) {
        std::string match;
        for (const auto& word : query.raw_words) match += (match.empty() ? "" : " ") + fts5_string(word);
        return {fts_sql("events_words"), match};
    }
    if (sw::has_cjk(query.exact)) {
        if (chars_in(query.exact) >= 3)
            return {fts_sql("events_trigrams", " AND e.search_trigrams = 1"), fts5_string(query.exact)};
        return {cjk_scan_sql(), query.exact};
    }
    std::string phrase = words_phrase(conn, query.exact);
    if (!phrase.empty()) return {fts_sql("events_words"), phrase};
    return {scan_sql(), query.exact};
}

// Best bm25 first, then the most recently updated.
bool ranks_before(const HitGroup& a, const HitGroup& b) {
    return std::tie(a.best, b.updated_at_us, b.sid) < std::tie(b.best, a.updated_at_us, a.sid);
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    search_sessions(
        conn, req, [&](const sw::Query& query) { return plan(conn, query); }, ranks_before, out);
}

}  // namespace mnemo::sqlite
