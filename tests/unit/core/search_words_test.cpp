// The host's word rules of search: terms (folds and Snowball stems), how a
// query reads (docs/api.md "How a query reads", one test per row of its
// table), match any and all, and where a text holds a query (highlights).
#include "core/query_reading.h"
#include "core/search.h"
#include "core/search_words.h"

#include <gtest/gtest.h>

#include <ostream>

#include <string>
#include <vector>

namespace mnemo::core {
namespace {

namespace sw = search_words;
namespace qr = query_reading;

using Terms = std::vector<std::string>;

}  // namespace
namespace query_reading {
void PrintTo(const Piece& piece, std::ostream* out) {
    *out << (piece.exact ? "exact:" : "words:") << piece.text;
}
}  // namespace query_reading
namespace {

TEST(SearchTerms, AreFoldedWordsReducedToTheirEnglishStem) {
    EXPECT_EQ(sw::term("Running"), "run");
    EXPECT_EQ(sw::term("runs"), "run");
    EXPECT_EQ(sw::term("PREFERRED"), "prefer");
    EXPECT_EQ(sw::term("prefers"), "prefer");
    EXPECT_EQ(sw::term("groups"), "group");
    EXPECT_EQ(sw::term("Mädchen"), "madchen");
    EXPECT_EQ(sw::term("2023"), "2023");
}

TEST(SearchTerms, OtherScriptsAreOnlyFoldedAndCjkWordsHaveNone) {
    EXPECT_EQ(sw::term("ΑΘΗΝΑ"), "αθηνα");
    EXPECT_EQ(sw::term("Москва"), "москва");
    EXPECT_EQ(sw::term("東京"), "");
    EXPECT_EQ(sw::stem("москва"), "москва");
}

TEST(SearchTerms, ForEachTermSkipsCjkWordsAndKeepsOffsets) {
    const std::string text = "Caroline went to the LGBTQ support groups 東京";
    std::vector<std::string> terms;
    std::vector<std::string> words;
    sw::for_each_term(text, [&](size_t begin, size_t end, const std::string& t) {
        terms.push_back(t);
        words.push_back(text.substr(begin, end - begin));
    });
    EXPECT_EQ(terms, (Terms{"carolin", "went", "to", "the", "lgbtq", "support", "group"}));
    EXPECT_EQ(words.back(), "groups");
}

// Highlighting passes over a word whose folded first letter begins none of
// the query's terms (search_words.cpp for_each_query_term): exact only while
// no stem changes its word's first letter. Snowball rewrites endings; this
// checks its irregular words, every suffix it knows on short bases, and every
// word of up to five letters over the letters its rules look at.
TEST(SearchTerms, AStemBeginsWithItsWordsFirstLetter) {
    std::vector<std::string> words = {"dying", "lying", "tying", "skies", "skis", "idly", "gently", "ugly",
                                      "early", "only", "singly", "news", "howe", "atlas", "cosmos", "bias",
                                      "andes", "inning", "outing", "canning", "herring", "earring", "proceed",
                                      "exceed", "succeed", "yelling", "yield", "ies", "ied", "eing", "aed"};
    const std::vector<std::string> bases = {"", "y", "a", "e", "u", "b", "s", "dy", "ly", "ty", "sky", "ab", "yo"};
    const std::vector<std::string> suffixes = {
        "s", "es", "ies", "ied", "sses", "us", "ss", "ing", "ingly", "ed", "edly", "eed", "eedly", "ly", "y",
        "ational", "tional", "enci", "anci", "abli", "entli", "izer", "ization", "ation", "ator", "alism",
        "aliti", "alli", "fulness", "ousli", "ousness", "iveness", "iviti", "biliti", "bli", "fulli", "lessli",
        "logi", "li", "alize", "icate", "iciti", "ical", "ful", "ness", "ative", "al", "ance", "ence", "er", "ic",
        "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion", "e", "l"};
    for (const std::string& base : bases)
        for (const std::string& suffix : suffixes) words.push_back(base + suffix);
    const std::string letters = "aeiouysltdnbg";
    std::vector<std::string> shorter = {""};
    for (int length = 1; length <= 5; ++length) {
        std::vector<std::string> longer;
        for (const std::string& w : shorter)
            for (char c : letters) longer.push_back(w + c);
        words.insert(words.end(), longer.begin(), longer.end());
        shorter = std::move(longer);
    }
    for (const std::string& word : words) {
        const std::string t = sw::stem(word);
        ASSERT_FALSE(t.empty()) << word;
        EXPECT_EQ(t[0], word[0]) << word << " -> " << t;
    }
    EXPECT_EQ(sw::term("Éclairs"), "eclair");
}

TEST(SearchTerms, APossessiveSIsNoTerm) {
    std::vector<std::string> terms;
    sw::for_each_term("Caroline's dog, Bob\u2019s cat: it's S", [&](size_t, size_t, const std::string& t) { terms.push_back(t); });
    EXPECT_EQ(terms, (Terms{"carolin", "dog", "bob", "cat", "it", "s"}));
    EXPECT_EQ(sw::parse_query("Caroline's dog").terms, (Terms{"carolin", "dog"}));
}

TEST(SearchStopWords, AreTheClassicEnglishFunctionWords) {
    for (const char* word : {"the", "what", "does", "to", "when", "did", "is", "a"}) EXPECT_TRUE(sw::is_stop_word(word)) << word;
    for (const char* word : {"seat", "prefer", "user", "caroline", "go"}) EXPECT_FALSE(sw::is_stop_word(word)) << word;
}

// docs/api.md's table of how a query reads: exact tokens.
TEST(QueryReading, PathIsExact) { EXPECT_TRUE(qr::is_exact_token("/etc/hosts")); }
TEST(QueryReading, UrlIsExact) { EXPECT_TRUE(qr::is_exact_token("https://a.b/c?d")); }
TEST(QueryReading, CommandOptionIsExact) {
    EXPECT_TRUE(qr::is_exact_token("--force"));
    EXPECT_TRUE(qr::is_exact_token("-n"));
}
TEST(QueryReading, IdentifierIsExact) { EXPECT_TRUE(qr::is_exact_token("user_id")); }
TEST(QueryReading, CallIsExact) { EXPECT_TRUE(qr::is_exact_token("a.b()")); }
TEST(QueryReading, FileNameAndVersionAreExact) {
    EXPECT_TRUE(qr::is_exact_token("nginx.conf"));
    EXPECT_TRUE(qr::is_exact_token("v1.2.3"));
}
TEST(QueryReading, TimeAndKeyAreExact) { EXPECT_TRUE(qr::is_exact_token("12:30")); }
TEST(QueryReading, RelativeAndHomePathsAreExact) {
    EXPECT_TRUE(qr::is_exact_token("./run.sh"));
    EXPECT_TRUE(qr::is_exact_token("~/notes"));
    EXPECT_TRUE(qr::is_exact_token("src/main/app"));
}
TEST(QueryReading, CjkIsExact) { EXPECT_TRUE(qr::is_exact_token("東京の天気")); }
TEST(QueryReading, PunctuationWithoutWordsIsExact) { EXPECT_TRUE(qr::is_exact_token("->")); }

// ... and ordinary punctuation of prose, which stays words.
TEST(QueryReading, AbbreviationIsWords) { EXPECT_FALSE(qr::is_exact_token("U.S")); }
TEST(QueryReading, TrailingPlusIsWords) { EXPECT_FALSE(qr::is_exact_token("LGBTQ+")); }
TEST(QueryReading, ApostropheIsWords) { EXPECT_FALSE(qr::is_exact_token("don't")); }
TEST(QueryReading, HyphenBetweenWordsIsWords) { EXPECT_FALSE(qr::is_exact_token("e-mail")); }
TEST(QueryReading, OneSlashBetweenWordsIsWords) {
    EXPECT_FALSE(qr::is_exact_token("and/or"));
    EXPECT_FALSE(qr::is_exact_token("deploy/api"));
}
TEST(QueryReading, CommaInNumberIsWords) { EXPECT_FALSE(qr::is_exact_token("1,2023")); }
TEST(QueryReading, PercentIsWords) { EXPECT_FALSE(qr::is_exact_token("50%")); }

TEST(QueryReading, SentencePunctuationAtChunkEndsIsIgnored) {
    EXPECT_EQ(qr::read_pieces("When did Caroline go to the LGBTQ support group?"),
              (std::vector<qr::Piece>{{"When", false},
                                      {"did", false},
                                      {"Caroline", false},
                                      {"go", false},
                                      {"to", false},
                                      {"the", false},
                                      {"LGBTQ", false},
                                      {"support", false},
                                      {"group", false}}));
    EXPECT_EQ(qr::read_pieces("(really), \"yes\"!  U.S.  what?!"),
              (std::vector<qr::Piece>{{"really", false}, {"yes", true}, {"U.S", false}, {"what", false}}));
    EXPECT_EQ(qr::read_pieces("call a.b() now."), (std::vector<qr::Piece>{{"call", false}, {"a.b()", true}, {"now", false}}));
    EXPECT_EQ(qr::read_pieces("see /etc/hosts."), (std::vector<qr::Piece>{{"see", false}, {"/etc/hosts", true}}));
}

TEST(QueryReading, QuotedPartsAreExactAndAnOpenQuoteIsPunctuation) {
    EXPECT_EQ(qr::read_pieces("say \"quoted part\" twice"),
              (std::vector<qr::Piece>{{"say", false}, {"quoted part", true}, {"twice", false}}));
    EXPECT_EQ(qr::read_pieces("\u201Ccurly quotes\u201D"), (std::vector<qr::Piece>{{"curly quotes", true}}));
    EXPECT_EQ(qr::read_pieces("an \"open quote"), (std::vector<qr::Piece>{{"an", false}, {"open", false}, {"quote", false}}));
    EXPECT_EQ(qr::read_pieces("\"\" ?"), std::vector<qr::Piece>{});
}

TEST(ParseQuery, DropsStopWordsAndStemsTheRest) {
    sw::Query q = sw::parse_query("What seat does the user PREFER?");
    EXPECT_EQ(q.kind, sw::QueryKind::Terms);
    EXPECT_EQ(q.terms, (Terms{"seat", "user", "prefer"}));
    EXPECT_TRUE(q.clauses.empty());
    EXPECT_EQ(q.match, sw::MatchMode::Any);
}

TEST(ParseQuery, AQueryOfStopWordsAloneKeepsThem) {
    EXPECT_EQ(sw::parse_query("to be or not to be").terms, (Terms{"to", "be", "or", "not"}));
}

TEST(ParseQuery, ExactTokensAreClausesAndTheirWordsAreTerms) {
    sw::Query q = sw::parse_query("why does git push --force fail on /srv/app?", sw::MatchMode::All);
    EXPECT_EQ(q.clauses, (Terms{"--force", "/srv/app"}));
    EXPECT_EQ(q.terms, (Terms{"git", "push", "forc", "fail", "srv", "app"}));
    EXPECT_EQ(q.match, sw::MatchMode::All);
}

TEST(ParseQuery, RepeatedTermsAndClausesCountOnce) {
    sw::Query q = sw::parse_query("Runs running RUN --force --FORCE");
    EXPECT_EQ(q.terms, (Terms{"run", "forc"}));
    EXPECT_EQ(q.clauses, (Terms{"--force"}));
}

TEST(ParseQuery, EmptyIsRecentAndPunctuationAloneAsksNothing) {
    EXPECT_EQ(sw::parse_query("  \t ").kind, sw::QueryKind::Recent);
    sw::Query q = sw::parse_query("?!");
    EXPECT_EQ(q.kind, sw::QueryKind::Terms);
    EXPECT_TRUE(q.empty());
    EXPECT_FALSE(sw::matches(q, "?! anything"));
}

TEST(ParseQuery, CjkIsAClauseWithoutTerms) {
    sw::Query q = sw::parse_query("東京の天気 weather");
    EXPECT_EQ(q.clauses, (Terms{"東京の天気"}));
    EXPECT_EQ(q.terms, (Terms{"weather"}));
}

TEST(Matches, AnyTermOrClauseMatchesAndAllNeedsEvery) {
    sw::Query any = sw::parse_query("what seat does the user prefer");
    EXPECT_TRUE(sw::matches(any, "Prefers an aisle seat on flights"));
    EXPECT_TRUE(sw::matches(any, "a window seat"));
    EXPECT_FALSE(sw::matches(any, "Drinks green tea, no sugar"));
    sw::Query all = sw::parse_query("seat prefer", sw::MatchMode::All);
    EXPECT_TRUE(sw::matches(all, "Prefers an aisle seat on flights"));
    EXPECT_FALSE(sw::matches(all, "a window seat"));
}

TEST(Matches, AllAsksForEachClauseRatherThanTheWordsOnlyItGives) {
    sw::Query q = sw::parse_query("onfig_v2( parse", sw::MatchMode::All);
    EXPECT_EQ(q.terms, (Terms{"onfig", "v2", "pars"}));
    EXPECT_EQ(q.required, (std::vector<bool>{false, false, true}));
    EXPECT_TRUE(sw::matches(q, "parse_config_v2(x)"));
    EXPECT_FALSE(sw::matches(q, "config_v2(x)"));
    EXPECT_FALSE(sw::matches(q, "parse onfig v2"));
    sw::Query twice = sw::parse_query("force --force", sw::MatchMode::All);
    EXPECT_EQ(twice.required, (std::vector<bool>{true}));
}

TEST(Matches, ClausesAreVerbatimAsciiCaseInsensitive) {
    sw::Query q = sw::parse_query("\"push --force\"", sw::MatchMode::All);
    EXPECT_TRUE(sw::matches(q, "git PUSH --FORCE origin"));
    EXPECT_FALSE(sw::matches(q, "git push origin --force"));
    EXPECT_TRUE(sw::matches(sw::parse_query("running"), "she runs daily"));
    EXPECT_FALSE(sw::matches(sw::parse_query("zeb"), "zebra"));
}

TEST(MatchedSpans, ListEveryMatchedWordAndClauseOnce) {
    const std::string text = "git push --force origin; pushed again";
    sw::Query q = sw::parse_query("push --force");
    std::vector<sw::Span> spans = sw::matched_spans(q, text);
    // `--force` covers its word; `push` and `pushed` share the stem.
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_EQ(text.substr(spans[0].begin, spans[0].end - spans[0].begin), "push");
    EXPECT_EQ(text.substr(spans[1].begin, spans[1].end - spans[1].begin), "--force");
    EXPECT_EQ(text.substr(spans[2].begin, spans[2].end - spans[2].begin), "pushed");
}

TEST(MatchedSpans, FindIrregularStemsAndFoldedInitials) {
    const std::string text = "Died? The dying dye. Éclairs, eclair; ÉCLAIR dies";
    std::vector<std::string> found;
    for (const sw::Span& s : sw::matched_spans(sw::parse_query("dying eclairs"), text))
        found.push_back(text.substr(s.begin, s.end - s.begin));
    EXPECT_EQ(found, (Terms{"Died", "dying", "Éclairs", "eclair", "ÉCLAIR", "dies"}));
}

TEST(ExcerptOf, HighlightsAreCodePointsIntoThePlainExcerpt) {
    const std::string text = "Über\nall: the Mädchen reads";
    Excerpt e = excerpt_of(sw::parse_query("madchen read"), text);
    EXPECT_EQ(e.text, "Über all: the Mädchen reads");
    ASSERT_EQ(e.highlights.size(), 2u);
    EXPECT_EQ(e.highlights[0], (std::pair<size_t, size_t>{14, 21}));
    EXPECT_EQ(e.highlights[1], (std::pair<size_t, size_t>{22, 27}));
}

TEST(ExcerptOf, CentersOnTheWindowHoldingTheMostDistinctMatches) {
    std::string text = "alpha " + std::string(400, 'x') + " beta gamma alpha " + std::string(400, 'y');
    Excerpt e = excerpt_of(sw::parse_query("alpha beta gamma"), text);
    EXPECT_LE(e.text.size(), kExcerptChars);
    EXPECT_NE(e.text.find("beta gamma alpha"), std::string::npos) << e.text;
    EXPECT_EQ(e.highlights.size(), 3u);
}

}  // namespace
}  // namespace mnemo::core
