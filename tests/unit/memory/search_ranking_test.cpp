// Ranked transcript search through the plugin's ABI (mnemo_search_req's
// contract): any or all of the query's terms and clauses, stemmed terms,
// stop words, BM25 over the request's scope (the user's, or the app's) with
// exact clauses first, sessions by their best event and each session's best
// hits in relevance or time order. The last tests hold the plugin's answers
// to a reference written from the contract alone, over random corpora, with
// events filed in the index, pending in the tail, and both.
#include "memory_fixture.h"

#include "core/search_words.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

namespace mnemo::memory_test {
namespace {

namespace sw = core::search_words;

constexpr const char* kHoldIndexingEnv = "MNEMO_MEMORY_TEST_HOLD_INDEXING";

// What one search answered: per session, its id and its hits' seqs, in order.
using Ranked = std::vector<std::pair<std::string, std::vector<int64_t>>>;

// with_user: sessions named user/id (ids repeat across users).
Ranked ranked_of(const Rows& rows, bool with_user = false) {
    Ranked ranked;
    size_t session = 0, hit = 0;
    for (char c : rows.order) {
        if (c == 'S') {
            const storage::SessionRow& row = rows.sessions.at(session++);
            ranked.emplace_back(with_user ? row.user + "/" + row.id : row.id, std::vector<int64_t>{});
        }
        if (c == 'H') ranked.back().second.push_back(rows.hits.at(hit++).seq);
    }
    return ranked;
}

// The Okapi BM25 share of one term, as docs/api.md states it (k1 0.9, b 0.4).
double bm25_share(double n, double df, double tf, double length, double average) {
    const double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    return idf * tf * 1.9 / (tf + 0.9 * (1 - 0.4 + 0.4 * length / average));
}

class RankedSearch : public MemoryTest {
protected:
    void SetUp() override {
        if (held()) ::setenv(kHoldIndexingEnv, "1", 1);
        MemoryTest::SetUp();
        ::unsetenv(kHoldIndexingEnv);
    }
    virtual bool held() const { return false; }

    // An event whose search text is `text`, its strings kept alive here.
    mnemo_event line(const std::string& text, const char* role = "user") {
        const std::string& content = strings_.emplace_back("\"" + text + "\"");
        const std::string& search = strings_.emplace_back(text);
        mnemo_event e = event("", role, content.c_str());
        e.search_text = s(search);
        return e;
    }

    struct Ask {
        std::string q;
        int match = MNEMO_MATCH_ANY;
        int order = MNEMO_ORDER_RELEVANCE;
        Opt user, role;
        int64_t limit = 100, max_hits = 100;
    };
    Ranked ask(const Ask& a, bool with_user = false) {
        mnemo_search_req req{};
        req.app = s(app);
        req.q = s(a.q);
        req.user = a.user ? s(*a.user) : absent();
        req.role = a.role ? s(*a.role) : absent();
        req.limit = a.limit;
        req.max_hits = a.max_hits;
        req.now_us = now;
        req.match = a.match;
        req.order = a.order;
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().search(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
        return ranked_of(sink.out(), with_user);
    }
    Ranked ask(const std::string& q, int match = MNEMO_MATCH_ANY) {
        Ask a;
        a.q = q;
        a.match = match;
        return ask(a);
    }

    // One session per text, created and written in the order given, one
    // microsecond apart (so a later one is the more recently updated).
    void one_each(const char* user, const std::vector<std::pair<std::string, std::string>>& sessions) {
        for (const auto& [id, text] : sessions) {
            ++now;
            create(user, id.c_str());
            append(user, id.c_str(), {line(text)});
        }
    }

    int soft_delete(const char* user, const char* id) {
        mnemo_session_delete_req req{key(app, user, id), now, 0};
        Recorder sink;
        return ops().session_delete(backend, &req, sink.get(), nullptr);
    }

    std::deque<std::string> strings_;
};

using Order = std::vector<std::string>;

Order sessions_of(const Ranked& ranked) {
    Order ids;
    for (const auto& [id, hits] : ranked) ids.push_back(id);
    return ids;
}

TEST_F(RankedSearch, Bm25OrdersByCountsLengthAndRarityAsComputedByHand) {
    // N 4, total length 2 + 3 + 2 + 5 = 12, average 3; df(apple) 2, df(cherry) 3.
    one_each("u1", {{"a", "apple banana"},
                    {"b", "apple apple cherry"},
                    {"c", "cherry date"},
                    {"d", "cherry elder fig grape kiwi"}});
    const double n = 4, average = 3;
    const double a = bm25_share(n, 2, 1, 2, average);
    const double b = bm25_share(n, 2, 2, 3, average) + bm25_share(n, 3, 1, 3, average);
    const double c = bm25_share(n, 3, 1, 2, average);
    const double d = bm25_share(n, 3, 1, 5, average);
    // What the order below rests on: tf and rarity beat a shorter text, and
    // a long text of the common term comes last.
    ASSERT_GT(b, a);
    ASSERT_GT(a, c);
    ASSERT_GT(c, d);
    EXPECT_EQ(sessions_of(ask("apple cherry")), (Order{"b", "a", "c", "d"}));
    EXPECT_EQ(sessions_of(ask("apple cherry", MNEMO_MATCH_ALL)), Order{"b"});
}

TEST_F(RankedSearch, EqualRelevanceTheMoreRecentlyUpdatedSessionFirst) {
    one_each("u1", {{"old", "walrus one"}, {"new", "walrus two"}, {"mid", "walrus six"}});
    EXPECT_EQ(sessions_of(ask("walrus")), (Order{"mid", "new", "old"}));
}

TEST_F(RankedSearch, AnyTermMatchesAndAllAsksForEveryOne) {
    one_each("u1", {{"both", "zebra crossing here"}, {"zebra", "zebra alone"}, {"cross", "crossing alone"}});
    EXPECT_EQ(sessions_of(ask("zebra crossing")).front(), "both");
    EXPECT_EQ(sessions_of(ask("zebra crossing")).size(), 3u);
    EXPECT_EQ(sessions_of(ask("zebra crossing", MNEMO_MATCH_ALL)), Order{"both"});
    EXPECT_EQ(sessions_of(ask("zebra okapi", MNEMO_MATCH_ALL)), Order{});
    EXPECT_EQ(sessions_of(ask("zebra okapi")).size(), 2u);
}

TEST_F(RankedSearch, TermsAreStemmed) {
    one_each("u1", {{"runs", "she runs daily"}, {"ran", "he ran once"}, {"runner", "the running joke"}});
    Order found = sessions_of(ask("running"));
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, (Order{"runner", "runs"})) << "running and runs are run; ran is not";
}

TEST_F(RankedSearch, StopWordsAreLeftOutUnlessTheQueryHasNothingElse) {
    one_each("u1", {{"the", "the cat sat"}, {"apple", "an apple"}, {"none", "cat"}});
    EXPECT_EQ(sessions_of(ask("the apple")), Order{"apple"}) << "`the` is a stop word beside `apple`";
    EXPECT_EQ(sessions_of(ask("the")), Order{"the"}) << "alone it is asked for";
    Order either = sessions_of(ask("the an"));
    std::sort(either.begin(), either.end());
    EXPECT_EQ(either, (Order{"apple", "the"}));
}

TEST_F(RankedSearch, AnEventHoldingAnExactClauseRanksAboveEveryOther) {
    // `hosts` and `etc` are terms of the query too; the second text has more of them.
    one_each("u1", {{"clause", "please edit /etc/hosts and the other things there today"},
                    {"terms", "hosts hosts etc etc"}});
    EXPECT_EQ(sessions_of(ask("/etc/hosts")), (Order{"clause", "terms"}));
    EXPECT_EQ(sessions_of(ask("/etc/hosts", MNEMO_MATCH_ALL)), Order{"clause"});
    EXPECT_EQ(sessions_of(ask("hosts etc")), (Order{"terms", "clause"})) << "no clause: BM25 alone";
}

TEST_F(RankedSearch, StatisticsCountTheUsersEventsOnlyWhenAUserIsNamed) {
    // For u1 alone alpha is the rarer term (df 1 of 3), so `a` ranks first;
    // over the app u2's alphas make it the commoner (df 4 of 6) and `b` wins.
    one_each("u1", {{"a", "alpha"}, {"b", "beta"}, {"c", "beta gamma"}});
    one_each("u2", {{"x", "alpha"}, {"y", "alpha"}, {"z", "alpha"}});
    ASSERT_GT(bm25_share(3, 1, 1, 1, 4.0 / 3), bm25_share(3, 2, 1, 1, 4.0 / 3));
    ASSERT_LT(bm25_share(6, 4, 1, 1, 7.0 / 6), bm25_share(6, 2, 1, 1, 7.0 / 6));
    Ask mine;
    mine.q = "alpha beta";
    mine.user = "u1";
    EXPECT_EQ(sessions_of(ask(mine)), (Order{"a", "b", "c"}));
    Order app_wide = sessions_of(ask("alpha beta"));
    std::erase_if(app_wide, [](const std::string& id) { return id == "x" || id == "y" || id == "z"; });
    EXPECT_EQ(app_wide, (Order{"b", "c", "a"}));
}

TEST_F(RankedSearch, FiltersNarrowHitsWithoutChangingTheStatistics) {
    // Over every event alpha is the commoner term (df 4 of 6, gamma 2), so
    // the gammas rank first; counted over the users' events alone (alpha 1
    // of 3) the alpha would. The role filter must not change the statistics.
    ++now;
    create("u1", "s");
    append("u1", "s",
           {line("alpha", "user"), line("gamma", "user"), line("gamma", "user"), line("alpha", "model"),
            line("alpha", "model"), line("alpha", "model")});
    Ask a;
    a.q = "alpha gamma";
    a.role = "user";
    EXPECT_EQ(ask(a), (Ranked{{"s", {3, 2, 1}}}));
    a.role.reset();
    EXPECT_EQ(ask(a), (Ranked{{"s", {3, 2, 6, 5, 4, 1}}}));
}

TEST_F(RankedSearch, EachSessionsBestHitsInRelevanceOrTimeOrder) {
    ++now;
    create("u1", "s");
    append("u1", "s",
           {line("kiwi"), line("kiwi kiwi kiwi"), line("nothing here"), line("kiwi and many other words around it"),
            line("kiwi kiwi")});
    Ask a;
    a.q = "kiwi";
    a.max_hits = 3;
    EXPECT_EQ(ask(a), (Ranked{{"s", {2, 5, 1}}})) << "best first; the longest text is left out";
    a.order = MNEMO_ORDER_TIME;
    EXPECT_EQ(ask(a), (Ranked{{"s", {1, 2, 5}}})) << "the same hits, oldest first";
}

TEST_F(RankedSearch, DeletedSessionsNeitherMatchNorCount) {
    one_each("u1", {{"gone", "alpha"}, {"a", "alpha"}, {"b", "beta"}, {"c", "beta"}});
    ASSERT_EQ(soft_delete("u1", "gone"), MNEMO_OK);
    // Without `gone` alpha is the rarer term (df 1 of 3, beta 2); were it
    // counted, both would be equally rare and the most recent first (c, b, a).
    EXPECT_EQ(sessions_of(ask("alpha beta")), (Order{"a", "c", "b"}));
}

std::string repeated(const std::string& word, int times) {
    std::string text;
    for (int i = 0; i < times; ++i) text += (i ? " " : "") + word;
    return text;
}

// A count past 254 is kept apart from the postings' one-byte counts; it must
// survive the renumbering that thousands of evictions bring (the indexer
// thread runs: the churn is filed, then evicted, while searches go on).
TEST_F(RankedSearch, LargeCountsStayExactThroughRenumbering) {
    // With the length equal to the count, more is better: 300 above 299,
    // which a count capped at 255 would put the other way round.
    one_each("u1", {{"more", repeated("kiwi", 300)}, {"fewer", repeated("kiwi", 299)}, {"other", "lime"}});
    EXPECT_EQ(sessions_of(ask("kiwi")), (Order{"more", "fewer"}));
    ++now;
    create("u2", "churn");
    // Each batch evicts the one before, filed meanwhile: dead ordinals pile
    // up past the renumbering's threshold (4096, and half the index).
    for (int batch = 0; batch < 100; ++batch) {
        std::vector<mnemo_event> events;
        for (int i = 0; i < 100; ++i) events.push_back(line("churn " + std::to_string(batch * 100 + i)));
        append("u2", "churn", events, {}, 100);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (batch % 20 == 19) {
            EXPECT_EQ(sessions_of(ask("kiwi")), (Order{"more", "fewer"})) << "batch " << batch;
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(sessions_of(ask("kiwi")), (Order{"more", "fewer"}));
    Ask churn;
    churn.q = "churn";
    churn.max_hits = 1000;
    ASSERT_EQ(ask(churn).size(), 1u);
    EXPECT_EQ(ask(churn).front().second.size(), 100u) << "the kept events, each once";
}

// ---- against a reference ----------------------------------------------------

// The contract written out naively: every event of the app checked with the
// host's rules, BM25 as bm25.h documents it.
struct RefEvent {
    std::string user, session;
    int64_t seq = 0;
    std::string text, role;
};

struct RefSession {
    std::string user, id;
    int64_t updated_at = 0;
    bool deleted = false;
};

struct RefQuery {
    std::string q;
    int match = MNEMO_MATCH_ANY;
    int order = MNEMO_ORDER_RELEVANCE;
    Opt user, role;
    int64_t limit = 5, max_hits = 3;
};

Ranked reference(const std::vector<RefEvent>& events, const std::map<std::string, RefSession>& sessions,
                 const RefQuery& rq) {
    const sw::Query query =
        sw::parse_query(rq.q, rq.match == MNEMO_MATCH_ALL ? sw::MatchMode::All : sw::MatchMode::Any);
    struct Doc {
        const RefEvent* event;
        std::map<std::string, double> counts;
        double length = 0;
    };
    std::vector<Doc> scope;
    for (const RefEvent& e : events) {
        // An event without text is a document of no words.
        if (sessions.at(e.session).deleted) continue;
        if (rq.user && e.user != *rq.user) continue;
        Doc doc{&e, {}, 0};
        sw::for_each_term(e.text, [&](size_t, size_t, const std::string& t) {
            doc.counts[t] += 1;
            doc.length += 1;
        });
        scope.push_back(std::move(doc));
    }
    double n = 0, total = 0;
    std::vector<double> df(query.terms.size(), 0);
    for (const Doc& doc : scope) {
        n += 1;
        total += doc.length;
        for (size_t t = 0; t < query.terms.size(); ++t) df[t] += doc.counts.contains(query.terms[t]) ? 1 : 0;
    }
    const double average = n > 0 && total > 0 ? total / n : 1;
    auto idf = [&](size_t t) { return std::log(1 + (n - std::min(df[t], n) + 0.5) / (std::min(df[t], n) + 0.5)); };
    double bound = 1;
    for (size_t t = 0; t < query.terms.size(); ++t) bound += 1.9 * idf(t);
    struct Hit {
        double relevance;
        int64_t seq;
    };
    std::map<std::string, std::vector<Hit>> by_session;
    for (const Doc& doc : scope) {
        if (rq.role && doc.event->role != *rq.role) continue;
        if (!sw::matches(query, doc.event->text)) continue;
        double score = 0;
        for (size_t t = 0; t < query.terms.size(); ++t) {
            auto it = doc.counts.find(query.terms[t]);
            const double tf = it == doc.counts.end() ? 0 : it->second;
            if (tf <= 0) continue;
            score += idf(t) * tf * 1.9 / (tf + 0.9 * (1 - 0.4 + 0.4 * doc.length / average));
        }
        size_t clauses = 0;
        for (const std::string& clause : query.clauses)
            if (sw::find_ascii_icase(doc.event->text, clause) != std::string_view::npos) ++clauses;
        by_session[doc.event->session].push_back(Hit{static_cast<double>(clauses) * bound + score, doc.event->seq});
    }
    struct Group {
        const RefSession* session;
        std::vector<Hit> hits;
    };
    std::vector<Group> groups;
    for (auto& [id, hits] : by_session) {
        std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
            return a.relevance != b.relevance ? a.relevance > b.relevance : a.seq > b.seq;
        });
        groups.push_back(Group{&sessions.at(id), hits});
    }
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        if (a.hits.front().relevance != b.hits.front().relevance)
            return a.hits.front().relevance > b.hits.front().relevance;
        if (a.session->updated_at != b.session->updated_at) return a.session->updated_at > b.session->updated_at;
        return std::tie(a.session->id, a.session->user) > std::tie(b.session->id, b.session->user);
    });
    Ranked ranked;
    for (const Group& group : groups) {
        if (static_cast<int64_t>(ranked.size()) == rq.limit) break;
        std::vector<int64_t> seqs;
        for (const Hit& hit : group.hits) {
            if (static_cast<int64_t>(seqs.size()) == rq.max_hits) break;
            seqs.push_back(hit.seq);
        }
        if (rq.order == MNEMO_ORDER_TIME) std::sort(seqs.begin(), seqs.end());
        ranked.emplace_back(group.session->user + "/" + group.session->id, seqs);
    }
    return ranked;
}

// The indexer held: events stay in the tail until back-pressure files them.
class RankedSearchReference : public RankedSearch {
protected:
    bool held() const override { return true; }

    // Random texts from a small vocabulary, so terms repeat, stems meet,
    // clauses occur and scores tie.
    std::string random_text() {
        static const std::vector<std::string> kWords = {
            "run",       "running", "runs",     "ran",   "the",      "a",          "zebra", "Zebras", "crossing",
            "/etc/hosts", "hosts",  "etc",      "user_id", "user",   "id",         "東京",  "天気",   "Crème",
            "creme",     "f(x)",    "kiwi",     "kiwis", "apple",    "--force",    "force", "of",     "and"};
        std::uniform_int_distribution<size_t> words(0, 7), pick(0, kWords.size() - 1);
        std::string text;
        for (size_t i = 0, n = words(rng_); i < n; ++i) {
            if (!text.empty()) text += ' ';
            text += kWords[pick(rng_)];
        }
        return text;
    }

    std::string random_query() {
        static const std::vector<std::string> kQueries = {
            "running",        "zebra crossing", "the",          "the a of",   "/etc/hosts",  "hosts etc",
            "user_id",        "东京",           "東京",         "crème",      "f(x) kiwi",   "\"zebra crossing\"",
            "--force apple",  "kiwis run",      "\"ross\"",     "Zebras",     "apple ran",   "\"user_id\" hosts",
            "天気 kiwi",      "\"c/hos\"",      "and or not",   "runs apple zebra kiwi creme"};
        std::uniform_int_distribution<size_t> pick(0, kQueries.size() - 1);
        return kQueries[pick(rng_)];
    }

    // Appends events to random sessions of two users (the first `sessions`
    // of a list of 24); some are models'.
    void write_random(int n_events, size_t sessions = 6) {
        static const std::vector<std::pair<std::string, std::string>> kSessions = [] {
            std::vector<std::pair<std::string, std::string>> all = {
                {"u1", "s1"}, {"u1", "s2"}, {"u1", "s3"}, {"u2", "s1"}, {"u2", "s4"}, {"u2", "s5"}};
            for (int i = 6; i < 24; ++i) all.emplace_back(i % 2 ? "u1" : "u2", "s" + std::to_string(i));
            return all;
        }();
        std::uniform_int_distribution<size_t> pick(0, std::min(sessions, kSessions.size()) - 1);
        std::bernoulli_distribution model(0.3), empty(0.05);
        for (int i = 0; i < n_events; ++i) {
            const auto& [user, id] = kSessions[pick(rng_)];
            const std::string name = user + "/" + id;
            ++now;
            if (!sessions_.contains(name)) {
                create(user.c_str(), id.c_str());
                sessions_[name] = RefSession{user, id, now, false};
            }
            const std::string text = empty(rng_) ? std::string() : random_text();
            const char* role = model(rng_) ? "model" : "user";
            std::vector<int64_t> seqs;
            append(user.c_str(), id.c_str(), {line(text, role)}, {}, 0, nullptr, &seqs);
            sessions_[name].updated_at = now;
            events_.push_back(RefEvent{user, name, seqs.at(0), text, role});
        }
    }

    // Filler in another app: its events push ours out of the tail into the
    // index (SearchIndexer::kMaxPending) without weighing on our statistics.
    void file_ours() {
        const char* ours = app;
        app = "filler-app";
        create("f", "f");
        for (int done = 0; done < 4096 + 256; done += 256) {
            std::vector<mnemo_event> batch;
            for (int i = 0; i < 256; ++i) batch.push_back(line("filler words"));
            append("f", "f", batch);
        }
        app = ours;
    }

    // Random queries; the answer must be the reference's, session for
    // session and hit for hit.
    void check_against_reference(int queries, const std::string& stage) {
        std::uniform_int_distribution<int> coin(0, 1), few(1, 4);
        for (int i = 0; i < queries; ++i) {
            RefQuery rq;
            rq.q = random_query();
            rq.match = coin(rng_) ? MNEMO_MATCH_ALL : MNEMO_MATCH_ANY;
            rq.order = coin(rng_) ? MNEMO_ORDER_TIME : MNEMO_ORDER_RELEVANCE;
            if (coin(rng_)) rq.user = coin(rng_) ? "u1" : "u2";
            if (few(rng_) == 1) rq.role = "model";
            rq.limit = few(rng_);
            rq.max_hits = few(rng_);
            Ask a{rq.q, rq.match, rq.order, rq.user, rq.role, rq.limit, rq.max_hits};
            const Ranked want = reference(events_, sessions_, rq);
            const Ranked got = ask(a, true);
            if (want.size() > 1) ++ranked_answers_;
            EXPECT_EQ(got, want) << stage << ": q=" << rq.q << " match=" << rq.match
                                           << " order=" << rq.order << " user=" << rq.user.value_or("-")
                                           << " role=" << rq.role.value_or("-") << " limit=" << rq.limit
                                           << " max_hits=" << rq.max_hits;
        }
    }

    void delete_one() {
        ASSERT_EQ(soft_delete("u2", "s4"), MNEMO_OK);
        if (sessions_.contains("u2/s4")) sessions_["u2/s4"].deleted = true;
    }

    std::mt19937 rng_{20261202};
    int ranked_answers_ = 0;  // answers of more than one session: the check has teeth
    std::vector<RefEvent> events_;
    std::map<std::string, RefSession> sessions_;  // by user/id
};

TEST_F(RankedSearchReference, LargeCountsRankTheSamePendingOrFiled) {
    one_each("u1", {{"more", repeated("kiwi", 300)}, {"fewer", repeated("kiwi", 299)}, {"other", "lime kiwi"}});
    const Ranked pending = ask("kiwi");
    EXPECT_EQ(sessions_of(pending), (Order{"more", "fewer", "other"}));
    file_ours();
    EXPECT_EQ(ask("kiwi"), pending);
}

TEST_F(RankedSearchReference, PendingFiledAndMixedAnswerAsTheReference) {
    write_random(120);
    check_against_reference(150, "all pending");
    file_ours();
    check_against_reference(150, "all filed");
    write_random(60);
    check_against_reference(150, "filed and pending");
    delete_one();
    check_against_reference(150, "a session deleted");
    EXPECT_GT(ranked_answers_, 300);
}

// Many sessions for few answers: the best-sessions walk skips most events
// (its threshold, the limit-th best session's best, rises early) and scores
// the answering sessions' hits in a second walk.
TEST_F(RankedSearchReference, ManySessionsAnswerAsTheReference) {
    write_random(400, 24);
    file_ours();
    check_against_reference(200, "many sessions filed");
    write_random(50, 24);
    check_against_reference(200, "many sessions, filed and pending");
    EXPECT_GT(ranked_answers_, 200);
}

}  // namespace
}  // namespace mnemo::memory_test
