// Keyword recall of every backend against a reference written from
// mnemo_memory_search_req's contract alone (the host's match, bm25.h's
// relevance over the scope's live memories before the other filters), over
// random memories of two users, some expired and not yet swept, with random
// queries, match modes, scopes and namespace filters (a user's recall
// through the term lists on the SQL backends, an app's through the text
// index). It reads the host's rules from mnemod's core directly.
#include "memories_fixture.h"

#include "core/search_words.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace mnemo::memories_test {
namespace {

namespace sw = core::search_words;

struct RefMemory {
    std::string user, id, name_space, text;
    int64_t updated_at = 0;
    bool expires = false;
};

struct RefHit {
    std::string id;
    double relevance = 0;
};

std::vector<RefHit> recall_reference(const std::vector<RefMemory>& memories, const std::string& q, int match,
                                     const Opt& user, const Opt& name_space, size_t limit) {
    const sw::Query query = sw::parse_query(q, match == MNEMO_MATCH_ALL ? sw::MatchMode::All : sw::MatchMode::Any);
    double n = 0, total = 0;
    std::vector<double> df(query.terms.size(), 0);
    auto counts_of = [](const std::string& text, double* length) {
        std::map<std::string, double> counts;
        sw::for_each_term(text, [&](size_t, size_t, const std::string& t) {
            counts[t] += 1;
            *length += 1;
        });
        return counts;
    };
    for (const RefMemory& m : memories) {
        if (m.expires || (user && m.user != *user)) continue;
        double length = 0;
        const auto counts = counts_of(m.text, &length);
        n += 1;
        total += length;
        for (size_t t = 0; t < query.terms.size(); ++t) df[t] += counts.contains(query.terms[t]) ? 1 : 0;
    }
    const double average = n > 0 && total > 0 ? total / n : 1;
    auto idf = [&](size_t t) { return std::log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)); };
    double bound = 1;
    for (size_t t = 0; t < query.terms.size(); ++t) bound += 1.9 * idf(t);
    std::vector<std::pair<RefHit, int64_t>> hits;
    for (const RefMemory& m : memories) {
        if (m.expires || (user && m.user != *user) || (name_space && m.name_space != *name_space)) continue;
        if (!sw::matches(query, m.text)) continue;
        double length = 0, score = 0;
        const auto counts = counts_of(m.text, &length);
        for (size_t t = 0; t < query.terms.size(); ++t) {
            auto it = counts.find(query.terms[t]);
            if (it == counts.end()) continue;
            score += idf(t) * it->second * 1.9 / (it->second + 0.9 * (1 - 0.4 + 0.4 * length / average));
        }
        size_t clauses = 0;
        for (const std::string& clause : query.clauses)
            if (sw::find_ascii_icase(m.text, clause) != std::string_view::npos) ++clauses;
        hits.emplace_back(RefHit{m.id, static_cast<double>(clauses) * bound + score}, m.updated_at);
    }
    std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) {
        if (a.first.relevance != b.first.relevance) return a.first.relevance > b.first.relevance;
        if (a.second != b.second) return a.second > b.second;
        return a.first.id > b.first.id;
    });
    std::vector<RefHit> out;
    for (size_t i = 0; i < hits.size() && i < limit; ++i) out.push_back(hits[i].first);
    return out;
}

using RecallReference = MemoriesTest;

// A vocabulary of n made-up words whose frequencies fall as a language's
// do (Zipf: the i-th word weighs 1/i), and sentences drawn from it.
class ZipfWords {
public:
    ZipfWords(const std::string& mark, int n) {
        std::vector<double> weights;
        for (int w = 0; w < n; ++w) {
            words_.push_back(mark + std::to_string(w) + "q");
            weights.push_back(1.0 / (w + 1));
        }
        pick_ = std::discrete_distribution<size_t>(weights.begin(), weights.end());
    }
    std::string sentence(std::mt19937& rng, size_t n) {
        std::string out;
        for (size_t w = 0; w < n; ++w) out += (w ? " " : "") + words_[pick_(rng)];
        return out;
    }

private:
    std::vector<std::string> words_;
    std::discrete_distribution<size_t> pick_;
};

TEST_F(RecallReference, RandomMemoriesAnswerAsTheReference) {
    std::mt19937 rng(20261203);
    const std::vector<std::string> words = {
        "run",  "running", "runs",    "ran",   "the",   "a",     "zebra",  "Zebras", "crossing", "/etc/hosts",
        "hosts", "etc",    "user_id", "user",  "id",    "東京",  "天気",   "Crème",  "creme",    "f(x)",
        "kiwi", "kiwis",   "apple",   "--force", "force", "of", "and",   "555-0100", "(home)"};
    const std::vector<std::string> queries = {
        "running",       "zebra crossing", "the",          "the a of",      "/etc/hosts",    "hosts etc",
        "user_id",       "東京",           "crème",        "f(x) kiwi",     "\"zebra crossing\"", "--force apple",
        "kiwis run",     "\"ross\"",       "Zebras",       "apple ran",     "\"user_id\" hosts",  "天気 kiwi",
        "\"c/hos\"",     "(home)",         "555-0100",     "runs apple zebra kiwi creme"};
    std::uniform_int_distribution<size_t> n_words(1, 7), word(0, words.size() - 1), query(0, queries.size() - 1);
    std::uniform_int_distribution<int> coin(0, 1), few(1, 6);
    std::vector<RefMemory> memories;
    for (int i = 0; i < 160; ++i) {
        RefMemory m;
        m.user = coin(rng) ? "u1" : "u2";
        m.id = "m" + std::to_string(i);
        m.name_space = coin(rng) ? "work" : "life";
        for (size_t w = 0, n = n_words(rng); w < n; ++w) m.text += (w ? " " : "") + words[word(rng)];
        m.expires = few(rng) == 1;
        m.updated_at = now + i % 7;  // ties of updated_at: then the id decides
        Item item = text(m.text).with_id(m.id).in(m.name_space);
        if (m.expires) item.ttl(5);
        write(m.user.c_str(), {item}, m.updated_at);
        memories.push_back(m);
    }
    const int64_t later = now + 100;  // the ttl'd memories have expired, unswept
    int ranked = 0;
    for (int i = 0; i < 400; ++i) {
        Filter filter;
        Opt user = coin(rng) ? Opt(coin(rng) ? "u1" : "u2") : std::nullopt;
        Opt name_space = few(rng) == 1 ? Opt("work") : std::nullopt;
        filter.user = user;
        filter.name_space = name_space;
        const std::string q = queries[query(rng)];
        const int match = coin(rng) ? MNEMO_MATCH_ALL : MNEMO_MATCH_ANY;
        const auto limit = static_cast<size_t>(few(rng) * 3);
        const std::vector<RefHit> want = recall_reference(memories, q, match, user, name_space, limit);
        Rows got = search(filter, q, static_cast<int64_t>(limit), later, match);
        std::vector<std::string> want_ids;
        for (const RefHit& hit : want) want_ids.push_back(hit.id);
        const std::string context = "q=" + q + " match=" + std::to_string(match) + " user=" + user.value_or("-") +
                                    " ns=" + name_space.value_or("-");
        ASSERT_EQ(got.hit_ids(), want_ids) << context;
        for (size_t h = 0; h < want.size(); ++h)
            EXPECT_DOUBLE_EQ(got.relevance()[h], want[h].relevance) << context << " hit " << h;
        if (want.size() > 1) ++ranked;
    }
    EXPECT_GT(ranked, 200) << "the check has teeth";
}

// Natural questions over words whose frequencies differ as a language's do
// (Zipf: a few words in most memories, most words in a few): a backend that
// stops walking the common words' postings once they can no longer change
// the answer (MaxScore, memories_search.h) answers what scoring every
// match does, for any limit, in a user's scope and the app's.
TEST_F(RecallReference, ZipfWordsAskedAsQuestionsAnswerAsScoringEveryMatch) {
    std::mt19937 rng(20261202);
    ZipfWords zipf("w", 60);
    std::uniform_int_distribution<size_t> n_words(2, 12), n_query(2, 6);
    std::uniform_int_distribution<int> coin(0, 1), limit_of(1, 12);
    std::vector<RefMemory> memories;
    for (int i = 0; i < 300; ++i) {
        RefMemory m;
        m.user = coin(rng) ? "u1" : "u2";
        m.id = "m" + std::to_string(i);
        m.text = zipf.sentence(rng, n_words(rng));
        m.updated_at = now + i % 5;
        write(m.user.c_str(), {text(m.text).with_id(m.id)}, m.updated_at);
        memories.push_back(m);
    }
    for (int i = 0; i < 300; ++i) {
        const std::string q = zipf.sentence(rng, n_query(rng));
        Filter filter;
        const Opt user = coin(rng) ? Opt(coin(rng) ? "u1" : "u2") : std::nullopt;
        filter.user = user;
        const auto limit = static_cast<size_t>(limit_of(rng));
        const std::vector<RefHit> want = recall_reference(memories, q, MNEMO_MATCH_ANY, user, std::nullopt, limit);
        std::vector<std::string> want_ids;
        for (const RefHit& hit : want) want_ids.push_back(hit.id);
        Rows got = search(filter, q, static_cast<int64_t>(limit), now + 10);
        ASSERT_EQ(got.hit_ids(), want_ids) << "q=" << q << " user=" << user.value_or("-") << " limit=" << limit;
        for (size_t h = 0; h < want.size(); ++h) EXPECT_DOUBLE_EQ(got.relevance()[h], want[h].relevance) << q;
    }
}

// The statistics an app-wide recall weighs with follow every kind of write
// (memory_stats.h on the SQL backends): memories written, rewritten with
// new words, removed, expired and then swept; after each stage the recalls
// answer as the reference over what is stored.
TEST_F(RecallReference, RewrittenRemovedExpiredAndSweptMemoriesLeaveTheStatisticsExact) {
    std::mt19937 rng(20261204);
    ZipfWords zipf("v", 40);
    std::uniform_int_distribution<size_t> n_words(1, 10), n_query(1, 5);
    std::uniform_int_distribution<int> coin(0, 1), few(1, 6), limit_of(1, 10);
    auto sentence = [&](size_t n) { return zipf.sentence(rng, n); };
    std::map<std::string, RefMemory> stored;  // by id
    int64_t at = now;
    auto put = [&](RefMemory m) {
        Item item = text(m.text).with_id(m.id);
        if (m.expires) item.ttl(5);
        write(m.user.c_str(), {item}, m.updated_at);
        stored[m.id] = m;
    };
    auto check = [&](const char* stage) {
        std::vector<RefMemory> memories;
        for (const auto& [id, m] : stored) memories.push_back(m);
        for (int i = 0; i < 60; ++i) {
            const std::string q = sentence(n_query(rng));
            const Opt user = few(rng) <= 2 ? Opt(coin(rng) ? "u1" : "u2") : std::nullopt;
            Filter filter;
            filter.user = user;
            const auto limit = static_cast<size_t>(limit_of(rng));
            std::vector<std::string> want_ids;
            for (const RefHit& hit : recall_reference(memories, q, MNEMO_MATCH_ANY, user, std::nullopt, limit))
                want_ids.push_back(hit.id);
            ASSERT_EQ(search(filter, q, static_cast<int64_t>(limit), at + 100).hit_ids(), want_ids)
                << stage << ": q=" << q << " user=" << user.value_or("-");
        }
    };
    for (int i = 0; i < 120; ++i)
        put(RefMemory{coin(rng) ? "u1" : "u2", "m" + std::to_string(i), "", sentence(n_words(rng)), at + i % 3,
                      few(rng) == 1});
    check("written");
    for (int i = 0; i < 120; i += 3) {  // rewritten with new words, never expiring
        RefMemory m = stored.at("m" + std::to_string(i));
        if (m.expires) continue;
        m.text = sentence(n_words(rng));
        m.updated_at = at + 4;
        put(m);
    }
    for (int i = 1; i < 120; i += 7) {
        const std::string id = "m" + std::to_string(i);
        ASSERT_EQ(remove(stored.at(id).user.c_str(), id, at + 5), MNEMO_OK);
        stored.erase(id);
    }
    check("rewritten and removed");
    sweep(at + 100);
    std::erase_if(stored, [](const auto& entry) { return entry.second.expires; });
    check("swept");
    // Removals the sweep forgets before a recall has read them (the feed's horizon moves past what it read).
    for (int i = 2; i < 120; i += 5) {
        const std::string id = "m" + std::to_string(i);
        if (!stored.contains(id)) continue;
        ASSERT_EQ(remove(stored.at(id).user.c_str(), id, at + 6), MNEMO_OK);
        stored.erase(id);
    }
    sweep(at + 100, 100, at + 50);
    check("removals forgotten");
}

}  // namespace
}  // namespace mnemo::memories_test
