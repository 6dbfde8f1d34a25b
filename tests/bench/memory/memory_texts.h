// The memory texts of BENCH.md workload G: one or two short sentences of the
// kind an assistant keeps about a user ("The customer approved the hotel
// booking refund last night. Need to review the loan interest today."),
// made from the memory's number alone (a splitmix64 stream), so every run
// and every build writes the same texts. Their words are those of
// search/make_questions.py, which builds the 200 questions the bench asks:
// workload E's vocabulary (search/fill_search.py's WORDS) and plural and past
// forms that stem like a word of it (`approved`, `refunds`), in the same two
// families of nouns (work and infrastructure; everyday life). The family
// and, in half the compounds, the qualifier follow the memory's topic (the
// center its vector was drawn around), so memories near in vector space
// also share words, as real ones do.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>

namespace mnemo::bench {

struct TextFamily {
    std::array<std::string_view, 24> qualifiers;
    size_t qualifier_count;
    std::array<std::string_view, 28> heads;
    size_t head_count;
    std::array<std::string_view, 8> people;  // "the customer": one person, the subject of a sentence
    size_t people_count;
    std::array<std::string_view, 14> pasts;   // what a person did to a thing
    std::array<std::string_view, 14> bases;   // the same verbs, base form
    size_t verb_count;
};

inline constexpr TextFamily kTech{
    {"server", "database", "container", "cluster", "proxy", "cache", "queue", "worker", "thread", "service",
     "endpoint", "network", "disk", "memory", "session", "login", "profile", "dashboard", "schema", "index",
     "table", "column", "pipeline", "branch"},
    24,
    {"deploy", "config", "backup", "migration", "build", "test", "coverage", "review", "report", "metric",
     "alert", "incident", "outage", "error", "timeout", "latency", "request", "response", "certificate", "token",
     "commit", "merge", "version", "query", "transaction", "ticket", "lint", "release"},
    28,
    {"the customer", "the user", "the worker"},
    3,
    {"deployed", "restored", "merged", "tested", "reviewed", "approved", "rejected", "released", "indexed",
     "changed", "committed", "queried", "formatted", "estimated"},
    {"deploy", "restore", "merge", "test", "review", "approve", "reject", "release", "index", "change", "commit",
     "query", "format", "estimate"},
    14,
};

inline constexpr TextFamily kLife{
    {"hotel", "flight", "dinner", "grocery", "insurance", "mortgage", "loan", "pharmacy", "travel", "email",
     "shipping", "payment", "calendar", "savings", "weather"},
    15,
    {"booking", "reminder", "schedule", "budget", "invoice", "contract", "appointment", "claim", "payment",
     "refund", "address", "password", "order", "meeting", "forecast", "interest", "recipe", "account",
     "prescription"},
    19,
    {"the customer", "the doctor", "the lawyer", "my mother", "my father", "her mother"},
    6,
    {"approved", "rejected", "changed", "claimed", "ordered", "refunded", "scheduled", "reviewed", "answered",
     "estimated", "approved", "changed", "ordered", "reviewed"},
    {"approve", "reject", "change", "claim", "order", "refund", "schedule", "review", "answer", "estimate",
     "approve", "change", "order", "review"},
    14,
};

inline constexpr std::array<std::string_view, 7> kTails = {"meeting", "report", "ticket", "review",
                                                          "reminder", "schedule", "deadline"};
inline constexpr std::array<std::string_view, 5> kHappened = {"changed", "worked", "ended", "helped", "went"};
inline constexpr std::array<std::string_view, 9> kStates = {"different", "old",  "new",  "large", "small",
                                                           "important", "good", "hard", "enough"};
inline constexpr std::array<std::string_view, 12> kTimes = {
    "today",     "this morning", "last night", "last year", "last time", "every day",
    "at night",  "in the morning", "this year", "next year", "next time", "after the meeting"};
inline constexpr std::array<std::string_view, 6> kPlaces = {"at home", "at school", "in the car", "in the house",
                                                           "in the city", "in the room"};

class TextStream {
public:
    explicit TextStream(uint64_t seed) : state_(seed) {}
    uint64_t next() {  // splitmix64
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return size_t(next() % n); }
    template <typename Array>
    std::string_view pick(const Array& words, size_t count = std::tuple_size_v<Array>) {
        return words[below(count)];
    }

private:
    uint64_t state_;
};

class MemoryText {
public:
    MemoryText(uint64_t number, uint32_t topic)
        : rng_(number * 0x2545F4914F6CDD1DULL + 2026),
          family_(topic % 3 == 2 ? kLife : kTech),
          topic_qualifier_(family_.qualifiers[topic / 3 % family_.qualifier_count]) {}

    std::string make() {
        std::string text = sentence();
        if (rng_.below(5) < 2) text += ' ' + sentence();
        return text;
    }

private:
    std::string_view person() { return family_.people[rng_.below(family_.people_count)]; }
    std::string_view past() { return family_.pasts[rng_.below(family_.verb_count)]; }
    std::string_view base() { return family_.bases[rng_.below(family_.verb_count)]; }
    std::string_view time() { return rng_.pick(kTimes); }
    std::string thing() {
        size_t n = rng_.below(family_.qualifier_count + family_.head_count);
        return std::string(n < family_.qualifier_count ? family_.qualifiers[n]
                                                       : family_.heads[n - family_.qualifier_count]);
    }
    std::string compound(bool three = false) {
        std::string words(rng_.below(2) == 0 ? topic_qualifier_
                                             : family_.qualifiers[rng_.below(family_.qualifier_count)]);
        words += ' ';
        std::string_view head = family_.heads[rng_.below(family_.head_count)];
        words += head;
        if (three) {
            std::string_view tail = rng_.pick(kTails);
            words += ' ';
            words += tail == head ? "deadline" : tail;
        }
        return words;
    }

    // The parts of a braced list are made in order, left to right; the
    // temporaries they view live until the sentence is joined.
    static std::string join(std::initializer_list<std::string_view> parts) {
        std::string s;
        for (std::string_view part : parts) {
            if (!s.empty()) s += ' ';
            s += part;
        }
        return s;
    }

    std::string sentence() {
        std::string s;
        switch (rng_.below(10)) {
            case 0: s = join({person(), past(), "the", compound(), time()}); break;
            case 1:
                s = join({person(), "said the", compound(), rng_.pick(kHappened), "after the", thing()});
                break;
            case 2:
                s = join({"the", compound(), "was", past(), time(), "because the", thing(), rng_.pick(kHappened)});
                break;
            case 3: s = join({person(), "wants the", compound(), past(), time()}); break;
            case 4: s = join({"need to", base(), "the", compound(rng_.below(3) == 0), time()}); break;
            case 5:
                s = join({person(), "keeps the", thing(), "for the", compound(), rng_.pick(kPlaces)});
                break;
            case 6:
                s = join({"the", compound(), "is", rng_.pick(kStates), "and the", thing(), "is", rng_.pick(kStates)});
                break;
            case 7: s = join({person(), "asked about the", compound(true), "and the", thing()}); break;
            case 8: s = join({person(), "will", base(), "the", compound(), time()}); break;
            default: s = join({person(), "likes the", thing(), "more than the", thing()}); break;
        }
        s[0] = char(s[0] - 'a' + 'A');
        s += rng_.below(8) == 0 ? '!' : '.';
        return s;
    }

    TextStream rng_;
    const TextFamily& family_;
    std::string_view topic_qualifier_;
};

// Memory `number`'s text; `topic` is the center its vector was drawn around.
inline std::string memory_text(uint64_t number, uint32_t topic) {
    return MemoryText(number, topic).make();
}

}  // namespace mnemo::bench
