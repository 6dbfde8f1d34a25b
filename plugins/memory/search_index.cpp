#include "search_index.h"

#include "host_services.h"

#include <algorithm>
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
// Dead ordinals are dropped once they are this many and outnumber live ones:
// the renumbering walks every posting, so it waits until it halves them.
constexpr size_t kMinDeadToRenumber = 4096;

std::string reversed(std::string_view word) {
    return std::string(word.rbegin(), word.rend());
}

bool is_ascii(std::string_view text) {
    unsigned char any = 0;
    for (char c : text) any |= static_cast<unsigned char>(c);
    return any < 0x80;
}

// std::ispunct and std::isspace of the "C" locale, without the locale lookup.
bool is_ascii_punct(unsigned char c) {
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}
bool is_ascii_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}
bool is_ascii_alnum(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Each CJK character of word alone, marked: fn(term) with term in scratch.
template <typename Fn>
void for_each_cjk_term(std::string_view word, std::string& scratch, Fn&& fn) {
    for (size_t pos = 0; pos < word.size();) {
        sw::CodePoint cp = sw::decode(word, pos);
        if (sw::is_cjk(cp.value)) {
            scratch.assign(1, kCharMark);
            scratch.append(word.substr(pos, cp.length));
            fn(std::string_view(scratch));
        }
        pos += cp.length;
    }
}

// Every two adjacent bytes of text with ASCII punctuation in them and no
// space, ASCII letters lowered (exact matching is ASCII case-insensitive),
// marked with a leading '\x02': `-n`, `()`, `/e`, `--`. An exact query made
// of punctuation and word edges (`()`, `-n`, `?=`) has no whole word to
// narrow by; its pairs do, since every text holding the query holds them.
template <typename Fn>
void for_each_punct_pair(std::string_view text, Fn&& fn) {
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]);
        if (is_ascii_space(a) || is_ascii_space(b) || !(is_ascii_punct(a) || is_ascii_punct(b))) continue;
        const char pair[] = {kPairMark, ascii_lower(text[i]), ascii_lower(text[i + 1])};
        fn(std::string_view(pair, sizeof pair));
    }
}

// The terms an event is indexed under: its folded words, for each CJK
// character that character alone (marked with a leading '\x01'), and its
// punctuation pairs. fn(term) for each, in text order, repeats included;
// term lives in scratch until the next call.
//
// ASCII text, the common case, is split here: among ASCII characters the
// host's word characters are exactly [0-9A-Za-z] and its fold lowers A-Z
// (core's is_word_char and fold_char), and no ASCII character is CJK. Any
// other text goes through the host's rules, a call per word.
template <typename Fn>
void for_each_search_term(std::string_view text, std::string& scratch, Fn&& fn) {
    if (is_ascii(text)) {
        for (size_t pos = 0; pos < text.size();) {
            if (!is_ascii_alnum(static_cast<unsigned char>(text[pos]))) {
                ++pos;
                continue;
            }
            scratch.clear();
            for (; pos < text.size() && is_ascii_alnum(static_cast<unsigned char>(text[pos])); ++pos)
                scratch.push_back(ascii_lower(text[pos]));
            fn(std::string_view(scratch));
        }
    } else {
        sw::for_each_word(text, [&](size_t begin, size_t end) {
            std::string_view word = text.substr(begin, end - begin);
            sw::fold_into(word, scratch);
            fn(std::string_view(scratch));
            if (!is_ascii(word)) for_each_cjk_term(word, scratch, fn);
        });
    }
    for_each_punct_pair(text, fn);
}

// Every word of `ordered` starting with `prefix`, as stored there.
template <typename Fn>
void for_each_with_prefix(const std::set<std::string, std::less<>>& ordered, const std::string& prefix, Fn&& fn) {
    for (auto it = ordered.lower_bound(prefix); it != ordered.end() && it->starts_with(prefix); ++it) fn(*it);
}

template <typename T>
void sort_unique(std::vector<T>& items) {
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
}

// ordinals (ascending) less those not in list. A binary search per ordinal
// costs about log2(list) merge steps; once the ordinals are more than a small
// fraction of the list, one in-order merge of both is cheaper.
template <typename List>
void keep_only(List& ordinals, const List& list) {
    constexpr size_t kLookupsPerMergeStep = 16;  // merge steps one lookup costs, about
    if (ordinals.size() * kLookupsPerMergeStep < list.size()) {
        std::erase_if(ordinals, [&](auto ordinal) { return !std::binary_search(list.begin(), list.end(), ordinal); });
        return;
    }
    List both;
    std::set_intersection(ordinals.begin(), ordinals.end(), list.begin(), list.end(), std::back_inserter(both));
    ordinals.swap(both);
}

}  // namespace

// One selective piece of an exact query: a term that must be present, or a
// word prefix / suffix some present word must have.
struct SearchIndex::Piece {
    enum Kind { Term, Prefix, Suffix } kind = Term;
    std::string text;  // folded; byte-reversed for Suffix
};

void SearchIndex::add_term(std::string_view term, Ordinal ordinal) {
    auto slot = ids_.find(term);
    if (slot == ids_.end()) {
        slot = ids_.emplace(std::string(term), static_cast<uint32_t>(postings_.size())).first;
        postings_.emplace_back();
        if (term.front() != kCharMark && term.front() != kPairMark) {
            words_.emplace(term);
            reversed_.insert(reversed(term));
        }
    }
    Postings& list = postings_[slot->second];
    // Ordinals only grow, so a repeat of a term within one event is the list's last entry.
    if (list.empty() || list.back() != ordinal) list.push_back(ordinal);
}

void TermList::clear() {
    bytes_.clear();
    term_ends_.clear();
    text_ends_.clear();
}

void TermList::add_text(std::string_view text) {
    for_each_search_term(text, scratch_, [&](std::string_view term) {
        bytes_.append(term);
        term_ends_.push_back(bytes_.size());
    });
    text_ends_.push_back(term_ends_.size());
}

void SearchIndex::add(const EventKey& key, uint32_t* ordinal, const TermList& terms, size_t text) {
    if (events_.size() >= EventRec::kNotIndexed) renumber();
    const auto at = static_cast<Ordinal>(events_.size());
    events_.push_back(Filed{key, ordinal});
    *ordinal = at;
    terms.for_each(text, [&](std::string_view term) { add_term(term, at); });
}

void SearchIndex::remove(const SessionRec& session, const EventRec& event) {
    const Ordinal ordinal = event.search_ordinal();
    if (ordinal >= events_.size() || events_[ordinal].key.session != &session ||
        events_[ordinal].key.seq != event.seq())
        return;
    events_[ordinal].key.session = nullptr;
    event.set_search_ordinal(EventRec::kNotIndexed);
    if (++dead_ >= kMinDeadToRenumber && dead_ * 2 > events_.size()) renumber();
}

// Drops dead ordinals and the terms only they held; live events keep their
// order, so every list stays ascending. Each live event's ordinal is set
// through the address add() was given: a removal marks an event dead before
// the event is freed, so every live address is still the event's.
void SearchIndex::renumber() {
    std::vector<Ordinal> renumbered(events_.size(), EventRec::kNotIndexed);
    std::vector<Filed> live;
    live.reserve(events_.size() - dead_);
    for (size_t old = 0; old < events_.size(); ++old) {
        const Filed& filed = events_[old];
        if (filed.key.session == nullptr) continue;
        renumbered[old] = static_cast<Ordinal>(live.size());
        *filed.ordinal = renumbered[old];
        live.push_back(filed);
    }
    events_.swap(live);
    dead_ = 0;
    TermIds ids;
    std::vector<Postings> postings;
    for (auto& [term, id] : ids_) {
        Postings& list = postings_[id];
        std::erase_if(list, [&](Ordinal ordinal) { return renumbered[ordinal] == EventRec::kNotIndexed; });
        for (Ordinal& ordinal : list) ordinal = renumbered[ordinal];
        if (list.empty()) {
            words_.erase(term);
            reversed_.erase(reversed(term));
            continue;
        }
        ids.emplace(term, static_cast<uint32_t>(postings.size()));
        postings.push_back(std::move(list));
    }
    ids_.swap(ids);
    postings_.swap(postings);
}

const SearchIndex::Postings* SearchIndex::find(std::string_view term) const {
    auto slot = ids_.find(term);
    return slot == ids_.end() ? nullptr : &postings_[slot->second];
}

std::vector<EventKey> SearchIndex::live_keys(const Postings& ordinals) const {
    std::vector<EventKey> keys;
    keys.reserve(ordinals.size());
    for (Ordinal ordinal : ordinals) {
        if (events_[ordinal].key.session != nullptr) keys.push_back(events_[ordinal].key);
    }
    return keys;
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
    Postings ordinals = *lists.front();
    for (size_t i = 1; i < lists.size() && !ordinals.empty(); ++i) keep_only(ordinals, *lists[i]);
    return live_keys(ordinals);
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
            std::string scratch;
            for_each_cjk_term(run, scratch, [&](std::string_view term) {
                pieces.push_back(Piece{Piece::Term, std::string(term)});
                has_term = true;
            });
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
    for_each_punct_pair(exact, [&](std::string_view pair) { pairs.emplace_back(pair); });
    sort_unique(pairs);
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

SearchIndex::Postings SearchIndex::ordinals_of(const Piece& piece) const {
    if (piece.kind == Piece::Term) {
        const Postings* list = find(piece.text);
        return list ? *list : Postings{};
    }
    Postings ordinals;
    const auto& ordered = piece.kind == Piece::Prefix ? words_ : reversed_;
    for_each_with_prefix(ordered, piece.text, [&](const std::string& word) {
        const Postings* list = find(piece.kind == Piece::Prefix ? word : reversed(word));
        ordinals.insert(ordinals.end(), list->begin(), list->end());
    });
    sort_unique(ordinals);
    return ordinals;
}

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
    Postings ordinals = ordinals_of(*by_size.front().second);
    for (size_t i = 1; i < by_size.size() && !ordinals.empty(); ++i) {
        const Piece& piece = *by_size[i].second;
        if (piece.kind == Piece::Term) {
            const Postings* list = find(piece.text);
            if (list == nullptr) return std::vector<EventKey>{};
            keep_only(ordinals, *list);
        } else if (by_size[i].first <= kMaxListedFactor * ordinals.size()) {
            keep_only(ordinals, ordinals_of(piece));
        }
    }
    return live_keys(ordinals);
}

}  // namespace mnemo::memory
