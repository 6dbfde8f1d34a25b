#include "search_index.h"

#include "host_services.h"

#include <algorithm>
#include <iterator>

namespace mnemo::memory {
namespace {

constexpr char kCharMark = '\x01';
constexpr char kPairMark = '\x02';
constexpr char kWordMark = '\x03';
// A prefix, suffix or infix piece is listed to narrow the candidates when it
// holds at most this many times as many events as they are.
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
char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Each CJK character of text alone, marked: fn(entry) with entry in scratch.
// Every CJK range starts at U+1100 or above: a lead byte of 0xE1 or more.
template <typename Fn>
void for_each_cjk_char(std::string_view text, std::string& scratch, Fn&& fn) {
    for (size_t pos = 0; pos < text.size();) {
        if (static_cast<unsigned char>(text[pos]) < 0xE1) {
            ++pos;
            continue;
        }
        host::CodePoint cp = host::decode(text, pos);
        if (host::is_cjk(cp.value)) {
            scratch.assign(1, kCharMark);
            scratch.append(text.substr(pos, cp.length));
            fn(std::string_view(scratch));
        }
        pos += cp.length;
    }
}

// Every two adjacent bytes of text with ASCII punctuation in them and no
// space, ASCII letters lowered (exact matching is ASCII case-insensitive),
// marked: `-n`, `()`, `/e`, `--`. An exact clause made of punctuation and
// word edges (`()`, `-n`, `?=`) has no whole word to narrow by; its pairs
// do, since every text holding the clause holds them.
template <typename Fn>
void for_each_punct_pair(std::string_view text, Fn&& fn) {
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]);
        if (is_ascii_space(a) || is_ascii_space(b) || !(is_ascii_punct(a) || is_ascii_punct(b))) continue;
        const char pair[] = {kPairMark, ascii_lower(text[i]), ascii_lower(text[i + 1])};
        fn(std::string_view(pair, sizeof pair));
    }
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

// ---- TermList -------------------------------------------------------------

TermList::Kind TermList::kind_of(std::string_view entry) {
    switch (entry.front()) {
        case kCharMark:
            return Kind::Char;
        case kPairMark:
            return Kind::Pair;
        case kWordMark:
            return Kind::Word;
        default:
            return Kind::Term;  // a term is letters and digits: it never starts with a mark
    }
}

void TermList::clear() {
    bytes_.clear();
    entry_ends_.clear();
    text_ends_.clear();
    lengths_.clear();
}

void TermList::add_entry(std::string_view entry) {
    bytes_.append(entry);
    entry_ends_.push_back(bytes_.size());
}

// The host's terms, each followed by its folded word when the stem changed
// it (ASCII words are folded here: among ASCII characters the host's fold
// lowers A-Z and nothing else), then the CJK characters and the punctuation
// pairs.
void TermList::add_text(std::string_view text) {
    uint32_t length = 0;
    const bool ascii = is_ascii(text);
    host::for_each_term(text, [&](size_t begin, size_t end, std::string_view term) {
        add_entry(term);
        ++length;
        const std::string_view word = text.substr(begin, end - begin);
        scratch_.assign(1, kWordMark);
        if (ascii || is_ascii(word)) {
            for (char c : word) scratch_.push_back(ascii_lower(c));
        } else {
            host::fold_into(word, folded_);
            scratch_.append(folded_);
        }
        if (std::string_view(scratch_).substr(1) != term) add_entry(scratch_);
    });
    if (!ascii) for_each_cjk_char(text, scratch_, [&](std::string_view entry) { add_entry(entry); });
    for_each_punct_pair(text, [&](std::string_view entry) { add_entry(entry); });
    text_ends_.push_back(entry_ends_.size());
    lengths_.push_back(length);
}

// ---- filing ----------------------------------------------------------------

// One selective piece of an exact clause: a term (or marked entry) that
// must be present, or a piece of a word that some present word must hold
// as its start (Prefix), end (Suffix) or anywhere (Infix).
struct SearchIndex::Piece {
    enum Kind { Term, Prefix, Suffix, Infix } kind = Term;
    std::string text;           // folded; byte-reversed for Suffix
    std::vector<uint32_t> ids;  // resolve(): the terms whose events hold it
    size_t size = 0;            // resolve(): their postings, together
};

uint32_t SearchIndex::term_id(std::string_view term, bool is_term) {
    auto slot = ids_.find(term);
    if (slot != ids_.end()) return slot->second;
    const auto id = static_cast<uint32_t>(postings_.size());
    ids_.emplace(std::string(term), id);
    postings_.emplace_back();
    if (is_term) {
        // The word spelled as its term (most words are their own stem).
        // Should that word stem otherwise, its own entry wins (add_word).
        words_.emplace(std::string(term), id);
        reversed_.emplace(reversed(term), id);
    }
    return id;
}

void SearchIndex::add_word(std::string_view word, uint32_t id) {
    if (word_ids_.contains(word)) return;
    word_ids_.emplace(std::string(word), id);
    words_.insert_or_assign(std::string(word), id);
    reversed_.insert_or_assign(reversed(word), id);
}

void SearchIndex::add_posting(uint32_t id, Ordinal ordinal, uint32_t length) {
    Postings& list = postings_[id];
    // Ordinals only grow, so a repeat of a term within one event is the list's last entry.
    if (list.ordinals.empty() || list.ordinals.back() != ordinal) {
        list.ordinals.push_back(ordinal);
        list.counts.push_back(1);
        list.max_count = std::max<uint32_t>(list.max_count, 1);
        list.min_length = std::min(list.min_length, length);
        return;
    }
    uint8_t& count = list.counts.back();
    uint32_t now = 0;
    if (count < kBigCount - 1) {
        now = ++count;
    } else if (count == kBigCount - 1) {
        count = kBigCount;
        now = big_counts_[big_key(id, ordinal)] = kBigCount;
    } else {
        now = ++big_counts_[big_key(id, ordinal)];
    }
    list.max_count = std::max(list.max_count, now);
}

uint32_t SearchIndex::slot_of(const SessionRec* session) {
    auto [it, fresh] = slots_.try_emplace(session, 0);
    if (!fresh) return it->second;
    if (free_slots_.empty()) {
        it->second = static_cast<uint32_t>(sessions_.size());
        sessions_.emplace_back();
    } else {
        it->second = free_slots_.back();
        free_slots_.pop_back();
    }
    sessions_[it->second].session = session;
    return it->second;
}

void SearchIndex::add(const EventKey& key, uint32_t* ordinal, const TermList& terms, size_t text) {
    if (events_.size() >= EventRec::kNotIndexed) renumber();
    const auto at = static_cast<Ordinal>(events_.size());
    *ordinal = at;
    uint32_t last_term = 0;
    const uint32_t length = terms.length(text);
    terms.for_each(text, [&](std::string_view entry) {
        switch (TermList::kind_of(entry)) {
            case TermList::Kind::Term:
                last_term = term_id(entry, true);
                add_posting(last_term, at, length);
                break;
            case TermList::Kind::Word:
                add_word(entry.substr(1), last_term);
                break;
            default:
                add_posting(term_id(entry, false), at, length);
                break;
        }
    });
    Filed filed;
    filed.key = key;
    filed.ordinal = ordinal;
    filed.length = length;
    filed.slot = slot_of(key.session);
    SessionTotals& totals = sessions_[filed.slot];
    ++totals.filed;
    totals.length += filed.length;
    events_.push_back(filed);
    by_ordinal_.push_back(ByOrdinal{filed.slot, filed.length});
}

void SearchIndex::remove(const SessionRec& session, const EventRec& event) {
    const Ordinal ordinal = event.search_ordinal();
    if (ordinal >= events_.size() || events_[ordinal].key.session != &session ||
        events_[ordinal].key.seq != event.seq())
        return;
    Filed& filed = events_[ordinal];
    SessionTotals& totals = sessions_[filed.slot];
    --totals.filed;
    totals.length -= filed.length;
    if (totals.filed == 0) {
        slots_.erase(totals.session);
        totals = SessionTotals{};
        free_slots_.push_back(filed.slot);
    }
    filed.key.session = nullptr;
    by_ordinal_[ordinal].slot = kDeadSlot;
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
        if (!filed.live()) continue;
        renumbered[old] = static_cast<Ordinal>(live.size());
        *filed.ordinal = renumbered[old];
        live.push_back(filed);
    }
    events_.swap(live);
    by_ordinal_.resize(events_.size());
    for (size_t ordinal = 0; ordinal < events_.size(); ++ordinal)
        by_ordinal_[ordinal] = ByOrdinal{events_[ordinal].slot, events_[ordinal].length};
    dead_ = 0;
    std::vector<uint32_t> new_ids(postings_.size(), UINT32_MAX);
    TermIds ids;
    std::vector<Postings> postings;
    for (auto& [term, id] : ids_) {
        Postings& list = postings_[id];
        size_t kept = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            if (renumbered[list.ordinals[i]] == EventRec::kNotIndexed) continue;
            list.ordinals[kept] = renumbered[list.ordinals[i]];
            list.counts[kept] = list.counts[i];
            ++kept;
        }
        if (kept == 0) continue;
        list.ordinals.resize(kept);
        list.counts.resize(kept);
        new_ids[id] = static_cast<uint32_t>(postings.size());
        ids.emplace(term, new_ids[id]);
        postings.push_back(std::move(list));
    }
    absl::flat_hash_map<uint64_t, uint32_t> big_counts;
    for (const auto& [key, count] : big_counts_) {
        const auto id = static_cast<uint32_t>(key >> 32);
        const auto ordinal = static_cast<Ordinal>(key & 0xFFFFFFFFu);
        if (new_ids[id] != UINT32_MAX && renumbered[ordinal] != EventRec::kNotIndexed)
            big_counts.emplace(big_key(new_ids[id], renumbered[ordinal]), count);
    }
    auto remap = [&](auto& words) {
        for (auto it = words.begin(); it != words.end();) {
            if (new_ids[it->second] == UINT32_MAX) {
                it = words.erase(it);
            } else {
                it->second = new_ids[it->second];
                ++it;
            }
        }
    };
    remap(words_);
    remap(reversed_);
    absl::erase_if(word_ids_, [&](const auto& entry) { return new_ids[entry.second] == UINT32_MAX; });
    for (auto& [word, id] : word_ids_) id = new_ids[id];
    ids_.swap(ids);
    postings_.swap(postings);
    big_counts_.swap(big_counts);
}

// ---- reading ---------------------------------------------------------------

const SearchIndex::Postings* SearchIndex::find(std::string_view term) const {
    auto slot = ids_.find(term);
    return slot == ids_.end() ? nullptr : &postings_[slot->second];
}

uint32_t SearchIndex::count(const Postings& list, size_t i) const {
    const uint8_t count = list.counts[i];
    if (count != kBigCount) return count;
    const auto id = static_cast<uint32_t>(&list - postings_.data());
    return big_counts_.at(big_key(id, list.ordinals[i]));
}

// A run bounded by non-word characters on both sides inside the clause is a
// whole word of any text holding the clause, so its term is held; a run at
// the clause's start may be the end of a longer word, one at its end the
// start of one, and a clause that is one run may lie inside a word. A clause
// with no whole word narrows by its punctuation pairs as well.
std::vector<SearchIndex::Piece> SearchIndex::pieces_of(std::string_view clause) const {
    std::vector<Piece> pieces;
    bool has_term = false;
    host::for_each_word(clause, [&](size_t begin, size_t end) {
        const std::string_view run = clause.substr(begin, end - begin);
        const bool left = begin > 0, right = end < clause.size();
        if (host::has_cjk(run)) {
            std::string scratch;
            for_each_cjk_char(run, scratch, [&](std::string_view entry) {
                pieces.push_back(Piece{Piece::Term, std::string(entry), {}, 0});
                has_term = true;
            });
        } else if (left && right) {
            host::for_each_term(run, [&](size_t, size_t, std::string_view term) {
                pieces.push_back(Piece{Piece::Term, std::string(term), {}, 0});
                has_term = true;
            });
        } else if (left) {
            pieces.push_back(Piece{Piece::Prefix, host::fold(run), {}, 0});
        } else if (right) {
            pieces.push_back(Piece{Piece::Suffix, reversed(host::fold(run)), {}, 0});
        } else {
            pieces.push_back(Piece{Piece::Infix, host::fold(run), {}, 0});
        }
    });
    if (has_term) return pieces;
    std::vector<std::string> pairs;
    for_each_punct_pair(clause, [&](std::string_view pair) { pairs.emplace_back(pair); });
    sort_unique(pairs);
    for (auto& pair : pairs) pieces.push_back(Piece{Piece::Term, std::move(pair), {}, 0});
    return pieces;
}

void SearchIndex::resolve(Piece& piece) const {
    switch (piece.kind) {
        case Piece::Term:
            if (auto slot = ids_.find(piece.text); slot != ids_.end()) piece.ids.push_back(slot->second);
            break;
        case Piece::Prefix:
        case Piece::Suffix: {
            const Ordered& ordered = piece.kind == Piece::Prefix ? words_ : reversed_;
            for (auto it = ordered.lower_bound(piece.text); it != ordered.end() && it->first.starts_with(piece.text);
                 ++it)
                piece.ids.push_back(it->second);
            break;
        }
        case Piece::Infix:
            for (const auto& [word, id] : words_)
                if (word.find(piece.text) != std::string::npos) piece.ids.push_back(id);
            break;
    }
    sort_unique(piece.ids);
    for (uint32_t id : piece.ids) piece.size += postings_[id].size();
}

std::vector<SearchIndex::Ordinal> SearchIndex::ordinals_of(const Piece& piece) const {
    if (piece.ids.size() == 1) return postings_[piece.ids.front()].ordinals;
    std::vector<Ordinal> ordinals;
    for (uint32_t id : piece.ids) {
        const std::vector<Ordinal>& list = postings_[id].ordinals;
        ordinals.insert(ordinals.end(), list.begin(), list.end());
    }
    sort_unique(ordinals);
    return ordinals;
}

// The events of the rarest piece that every other piece also holds: each
// piece is a necessary condition, so the intersection is still a superset.
// A word piece much larger than the running set costs more to list than
// the verification it would save; it is left to the verification.
std::optional<std::vector<SearchIndex::Ordinal>> SearchIndex::clause_candidates(std::string_view clause) const {
    std::vector<Piece> pieces = pieces_of(clause);
    if (pieces.empty()) return std::nullopt;
    for (Piece& piece : pieces) {
        resolve(piece);
        if (piece.size == 0) return std::vector<Ordinal>{};  // no filed event holds it
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.size < b.size; });
    std::vector<Ordinal> ordinals = ordinals_of(pieces.front());
    for (size_t i = 1; i < pieces.size() && !ordinals.empty(); ++i) {
        const Piece& piece = pieces[i];
        if (piece.kind == Piece::Term) {
            keep_only(ordinals, postings_[piece.ids.front()].ordinals);
        } else if (piece.size <= kMaxListedFactor * ordinals.size()) {
            keep_only(ordinals, ordinals_of(piece));
        }
    }
    return ordinals;
}

}  // namespace mnemo::memory
