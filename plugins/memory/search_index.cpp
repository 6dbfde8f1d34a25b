#include "search_index.h"

#include "host_services.h"
#include "memory_store.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>

namespace mnemo::memory {
namespace {

namespace sw = host;

constexpr char kCharMark = '\x01';
constexpr char kPairMark = '\x02';
// A prefix or suffix piece is listed to narrow the candidates when it holds
// at most this many times as many events as they are.
constexpr size_t kMaxListedFactor = 8;

std::string reversed(std::string_view word) {
    return std::string(word.rbegin(), word.rend());
}

void add_cjk_terms(std::string_view word, std::vector<std::string>& terms) {
    for (size_t pos = 0; pos < word.size();) {
        sw::CodePoint cp = sw::decode(word, pos);
        if (sw::is_cjk(cp.value)) terms.push_back(kCharMark + std::string(word.substr(pos, cp.length)));
        pos += cp.length;
    }
}

bool is_ascii_punct(unsigned char c) {
    return c < 0x80 && std::ispunct(c);
}
bool is_ascii_space(unsigned char c) {
    return c < 0x80 && std::isspace(c);
}
char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Every two adjacent bytes of text with ASCII punctuation in them and no
// space, ASCII letters lowered (exact matching is ASCII case-insensitive),
// marked with a leading '\x02': `-n`, `()`, `/e`, `--`. An exact query made
// of punctuation and word edges (`()`, `-n`, `?=`) has no whole word to
// narrow by; its pairs do, since every text holding the query holds them.
void add_punct_pairs(std::string_view text, std::vector<std::string>& terms) {
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]);
        if (is_ascii_space(a) || is_ascii_space(b) || !(is_ascii_punct(a) || is_ascii_punct(b))) continue;
        terms.push_back(std::string{kPairMark, ascii_lower(text[i]), ascii_lower(text[i + 1])});
    }
}

// Every word of `ordered` starting with `prefix`, as stored there.
template <typename Fn>
void for_each_with_prefix(const std::set<std::string>& ordered, const std::string& prefix, Fn&& fn) {
    for (auto it = ordered.lower_bound(prefix); it != ordered.end() && it->starts_with(prefix); ++it) fn(*it);
}

}  // namespace

// One selective piece of an exact query: a term that must be present, or a
// word prefix / suffix some present word must have.
struct SearchIndex::Piece {
    enum Kind { Term, Prefix, Suffix } kind = Term;
    std::string text;  // folded; byte-reversed for Suffix
};

std::vector<std::string> search_terms(std::string_view search_text) {
    std::vector<std::string> terms;
    sw::for_each_word(search_text, [&](size_t begin, size_t end) {
        std::string_view word = search_text.substr(begin, end - begin);
        terms.push_back(sw::fold(word));
        add_cjk_terms(word, terms);
    });
    add_punct_pairs(search_text, terms);
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    return terms;
}

void SearchIndex::add(const SessionRec& session, const EventRec& event) {
    for (std::string& term : search_terms(event.search_text)) {
        auto [slot, created] = postings_.try_emplace(term);
        slot->second.insert(EventKey{&session, event.seq});
        if (!created || term.front() == kCharMark || term.front() == kPairMark) continue;
        words_.insert(term);
        reversed_.insert(reversed(term));
    }
}

void SearchIndex::remove(const SessionRec& session, const EventRec& event) {
    for (const std::string& term : search_terms(event.search_text)) {
        auto slot = postings_.find(term);
        if (slot == postings_.end()) continue;
        slot->second.erase(EventKey{&session, event.seq});
        if (!slot->second.empty()) continue;
        postings_.erase(slot);
        words_.erase(term);
        reversed_.erase(reversed(term));
    }
}

const Postings* SearchIndex::find(const std::string& term) const {
    auto slot = postings_.find(term);
    return slot == postings_.end() ? nullptr : &slot->second;
}

std::vector<EventKey> SearchIndex::with_all(const std::vector<std::string>& terms) const {
    std::vector<const Postings*> lists;
    for (const std::string& term : terms) {
        const Postings* list = find(term);
        if (list == nullptr) return {};
        lists.push_back(list);
    }
    if (lists.empty()) return {};
    std::sort(lists.begin(), lists.end(), [](const Postings* a, const Postings* b) { return a->size() < b->size(); });
    std::vector<EventKey> out;
    for (const EventKey& key : *lists.front()) {
        if (std::all_of(lists.begin() + 1, lists.end(), [&](const Postings* l) { return l->count(key) > 0; }))
            out.push_back(key);
    }
    return out;
}

// A run bounded by non-word characters on both sides inside the query is a
// whole word of any text holding the query; a run at the query's start may
// be the end of a longer word, one at its end the start of one. A query with
// no whole word narrows by its punctuation pairs instead.
std::vector<SearchIndex::Piece> SearchIndex::pieces_of(std::string_view exact) const {
    std::vector<Piece> pieces;
    bool has_term = false;
    sw::for_each_word(exact, [&](size_t begin, size_t end) {
        std::string_view run = exact.substr(begin, end - begin);
        bool left = begin > 0, right = end < exact.size();
        if (sw::has_cjk(run)) {
            std::vector<std::string> chars;
            add_cjk_terms(run, chars);
            for (auto& c : chars) pieces.push_back(Piece{Piece::Term, std::move(c)});
            has_term = has_term || !chars.empty();
        } else if (left && right) {
            pieces.push_back(Piece{Piece::Term, sw::fold(run)});
            has_term = true;
        } else if (left) {
            pieces.push_back(Piece{Piece::Prefix, sw::fold(run)});
        } else if (right) {
            pieces.push_back(Piece{Piece::Suffix, reversed(sw::fold(run))});
        }
    });
    if (has_term) return pieces;
    std::vector<std::string> pairs;
    add_punct_pairs(exact, pairs);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    for (auto& pair : pairs) pieces.push_back(Piece{Piece::Term, std::move(pair)});
    return pieces;
}

size_t SearchIndex::size_of(const Piece& piece) const {
    if (piece.kind == Piece::Term) {
        const Postings* list = find(piece.text);
        return list ? list->size() : 0;
    }
    size_t total = 0;
    const auto& ordered = piece.kind == Piece::Prefix ? words_ : reversed_;
    for_each_with_prefix(ordered, piece.text, [&](const std::string& word) {
        total += find(piece.kind == Piece::Prefix ? word : reversed(word))->size();
    });
    return total;
}

std::vector<EventKey> SearchIndex::keys_of(const Piece& piece) const {
    std::vector<EventKey> keys;
    if (piece.kind == Piece::Term) {
        if (const Postings* list = find(piece.text)) keys.assign(list->begin(), list->end());
        return keys;
    }
    const auto& ordered = piece.kind == Piece::Prefix ? words_ : reversed_;
    for_each_with_prefix(ordered, piece.text, [&](const std::string& word) {
        const Postings* list = find(piece.kind == Piece::Prefix ? word : reversed(word));
        keys.insert(keys.end(), list->begin(), list->end());
    });
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

namespace {

// keys (sorted) less those not in list. A lookup per key descends the
// list's tree; once the keys are more than a small fraction of the list, one
// in-order merge of both is cheaper.
void keep_only(std::vector<EventKey>& keys, const Postings& list) {
    constexpr size_t kLookupsPerMergeStep = 16;  // merge steps one lookup costs, about
    if (keys.size() * kLookupsPerMergeStep < list.size()) {
        std::erase_if(keys, [&](const EventKey& key) { return list.count(key) == 0; });
        return;
    }
    std::vector<EventKey> both;
    std::set_intersection(keys.begin(), keys.end(), list.begin(), list.end(), std::back_inserter(both));
    keys.swap(both);
}

}  // namespace

// The events of the rarest piece that every other piece also holds: each
// piece is a necessary condition, so the intersection is still a superset.
// A prefix or suffix piece much larger than the running set costs more to
// list than the verification it would save; it is left to the verification.
std::optional<std::vector<EventKey>> SearchIndex::exact_candidates(std::string_view exact) const {
    std::vector<Piece> pieces = pieces_of(exact);
    if (pieces.empty()) return std::nullopt;
    std::vector<std::pair<size_t, const Piece*>> by_size;
    for (const Piece& piece : pieces) by_size.emplace_back(size_of(piece), &piece);
    std::sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<EventKey> keys = keys_of(*by_size.front().second);
    for (size_t i = 1; i < by_size.size() && !keys.empty(); ++i) {
        const Piece& piece = *by_size[i].second;
        if (piece.kind == Piece::Term) {
            const Postings* list = find(piece.text);
            if (list == nullptr) return std::vector<EventKey>{};
            keep_only(keys, *list);
        } else if (by_size[i].first <= kMaxListedFactor * keys.size()) {
            std::vector<EventKey> listed = keys_of(piece);
            std::erase_if(keys,
                          [&](const EventKey& key) { return !std::binary_search(listed.begin(), listed.end(), key); });
        }
    }
    return keys;
}

void index_event(AppRec& app, const SessionRec& session, const EventRec& event) {
    app.search.add(session, event);
}

void unindex_event(AppRec& app, const SessionRec& session, const EventRec& event) {
    app.search.remove(session, event);
}

void unindex_session_events(AppRec& app, const SessionRec& session) {
    for (const EventRec& event : session.events.visible()) app.search.remove(session, event);
}

int64_t evict_indexed(AppRec& app, SessionRec& session, int64_t limit) {
    const auto& visible = session.events.visible();
    for (int64_t i = 0; limit > 0 && i < session.events.visible_count() - limit; ++i)
        app.search.remove(session, visible[static_cast<size_t>(i)]);
    return session.events.evict_beyond(limit);
}

}  // namespace mnemo::memory
