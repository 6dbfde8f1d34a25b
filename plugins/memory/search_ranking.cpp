#include "search_ranking.h"

#include "bm25.h"

#include <algorithm>
#include <optional>

namespace mnemo::memory {

const EventRec* visible_event(const SessionRec& session, int64_t seq) {
    const auto& visible = session.events.visible();
    size_t index = session.events.first_after(seq - 1);
    return index < visible.size() && visible[index].seq() == seq ? &visible[index] : nullptr;
}

bool SessionFilter::in_scope(const SessionRec& session) const {
    return session.visible(req_.now_us) && (!req_.user.ptr || session.user == view(req_.user));
}

bool SessionFilter::passes(const SessionRec& session) {
    auto [slot, fresh] = memo_.try_emplace(&session, false);
    if (fresh) slot->second = check(session);
    return slot->second;
}

bool SessionFilter::check(const SessionRec& session) const {
    if (!in_scope(session)) return false;
    if (req_.exclude_session.ptr && session.id == view(req_.exclude_session)) return false;
    if (!req_.channel.ptr) return true;
    // The channel is the metadata's string "channel" or "platform".
    const auto members = host::json_members(session.metadata_json);
    if (!members) return false;
    for (const host::JsonMember& member : *members) {
        if (member.kind == MNEMO_JSON_STRING && (member.key == "channel" || member.key == "platform") &&
            member.text == view(req_.channel))
            return true;
    }
    return false;
}

namespace {

using Ordinal = SearchIndex::Ordinal;

// A pending event of the scope, split on the fly.
struct TailDoc {
    const SessionRec* session = nullptr;
    int64_t seq = 0;
    std::string_view text;
    std::vector<host::TermCount> counts;
    uint32_t length = 0;
};

class Ranking {
public:
    Ranking(const SearchIndexer::View& view, const host::Query& query, SessionFilter& sessions)
        : index_(view.index), tail_keys_(view.tail), query_(query), sessions_(sessions) {}

    std::vector<ScoredEvent> run() {
        count_scope();
        corpus_.document_frequency.assign(query_.terms.size(), 0);
        split_tail();
        count_filed_frequencies();
        bound_ = corpus_.bound();
        if (query_.match_all && !query_.terms.empty()) {
            score_all_terms();
        } else if (query_.match_all) {
            score_all_clauses();
        } else {
            score_any();
        }
        score_tail();
        return std::move(scored_);
    }

private:
    enum : uint8_t { kOut = 0, kScope, kPass, kFail };

    // The filed sessions in scope give N and the total length.
    void count_scope() {
        const auto& sessions = index_.sessions();
        slot_states_.assign(sessions.size(), kOut);
        for (size_t slot = 0; slot < sessions.size(); ++slot) {
            const SearchIndex::SessionTotals& totals = sessions[slot];
            if (!totals.session || !sessions_.in_scope(*totals.session)) continue;
            slot_states_[slot] = kScope;
            corpus_.documents += totals.documents;
            corpus_.total_length += static_cast<double>(totals.length);
        }
    }

    // The tail's documents of the scope: N, length and df count them too.
    void split_tail() {
        for (const EventKey& key : tail_keys_) {
            if (!sessions_.in_scope(*key.session)) continue;
            const EventRec* event = visible_event(*key.session, key.seq);
            if (!event || event->search_text().empty()) continue;
            TailDoc doc{key.session, key.seq, event->search_text(), {}, 0};
            doc.counts = host::count_terms(doc.text, &doc.length);
            corpus_.documents += 1;
            corpus_.total_length += doc.length;
            for (size_t t = 0; t < query_.terms.size(); ++t)
                if (host::term_frequency(doc.counts, query_.terms[t]) > 0) corpus_.document_frequency[t] += 1;
            if (sessions_.passes(*key.session)) tail_.push_back(std::move(doc));
        }
    }

    void count_filed_frequencies() {
        for (size_t t = 0; t < query_.terms.size(); ++t) {
            const SearchIndex::Postings* list = index_.find(query_.terms[t]);
            lists_.push_back(list);
            if (!list) continue;
            size_t df = 0;
            for (Ordinal ordinal : list->ordinals) {
                const SearchIndex::Filed& filed = index_.filed(ordinal);
                if (filed.live() && slot_states_[filed.slot] != kOut) ++df;
            }
            corpus_.document_frequency[t] += static_cast<double>(df);
        }
    }

    // Whether a filed event is live, in scope and through the session filters.
    bool passes(Ordinal ordinal) {
        const SearchIndex::Filed& filed = index_.filed(ordinal);
        if (!filed.live()) return false;
        uint8_t& state = slot_states_[filed.slot];
        if (state == kScope) state = sessions_.passes(*filed.key.session) ? kPass : kFail;
        return state == kPass;
    }

    std::string_view text_of(Ordinal ordinal) const {
        const EventKey& key = index_.filed(ordinal).key;
        const EventRec* event = visible_event(*key.session, key.seq);
        return event ? event->search_text() : std::string_view();
    }

    bool holds(std::string_view text, const std::string& clause) const {
        return host::find_ascii_icase(text, clause) != std::string_view::npos;
    }

    // relevance() of bm25.h, from counts at hand: the same sum in the same order.
    void add(Ordinal ordinal, const std::vector<uint32_t>& tf, size_t clauses) {
        const SearchIndex::Filed& filed = index_.filed(ordinal);
        double bm25 = 0;
        for (size_t t = 0; t < tf.size(); ++t)
            if (tf[t] > 0) bm25 += host::bm25_term(corpus_, t, tf[t], filed.length);
        scored_.push_back(ScoredEvent{static_cast<double>(clauses) * bound_ + bm25, filed.key.session, filed.key.seq});
    }

    // The filed events passing the filters that hold clause, ascending.
    std::vector<Ordinal> holding(const std::string& clause) {
        std::vector<Ordinal> found;
        auto consider = [&](Ordinal ordinal) {
            if (passes(ordinal) && holds(text_of(ordinal), clause)) found.push_back(ordinal);
        };
        if (auto candidates = index_.clause_candidates(clause)) {
            for (Ordinal ordinal : *candidates) consider(ordinal);
        } else {
            for (size_t ordinal = 0; ordinal < index_.ordinal_end(); ++ordinal) consider(static_cast<Ordinal>(ordinal));
        }
        return found;
    }

    // Match any: every event in some term's postings or holding some clause,
    // merged by ordinal so each is scored once with all its counts.
    void score_any() {
        std::vector<std::vector<Ordinal>> clause_lists;
        for (const std::string& clause : query_.clauses) clause_lists.push_back(holding(clause));
        const size_t terms = query_.terms.size();
        struct Cursor {
            Ordinal ordinal;
            size_t list, at;
        };
        auto later = [](const Cursor& a, const Cursor& b) { return a.ordinal > b.ordinal; };
        std::vector<Cursor> heap;
        auto ordinals = [&](size_t list) -> const std::vector<Ordinal>& {
            return list < terms ? lists_[list]->ordinals : clause_lists[list - terms];
        };
        for (size_t list = 0; list < terms + clause_lists.size(); ++list) {
            if (list < terms && !lists_[list]) continue;
            if (!ordinals(list).empty()) heap.push_back(Cursor{ordinals(list).front(), list, 0});
        }
        std::make_heap(heap.begin(), heap.end(), later);
        std::vector<uint32_t> tf(terms, 0);
        while (!heap.empty()) {
            const Ordinal ordinal = heap.front().ordinal;
            std::fill(tf.begin(), tf.end(), 0);
            size_t clauses = 0;
            while (!heap.empty() && heap.front().ordinal == ordinal) {
                std::pop_heap(heap.begin(), heap.end(), later);
                Cursor& cursor = heap.back();
                if (cursor.list < terms) {
                    tf[cursor.list] = index_.count(*lists_[cursor.list], cursor.at);
                } else {
                    ++clauses;
                }
                const std::vector<Ordinal>& list = ordinals(cursor.list);
                if (++cursor.at < list.size()) {
                    cursor.ordinal = list[cursor.at];
                    std::push_heap(heap.begin(), heap.end(), later);
                } else {
                    heap.pop_back();
                }
            }
            // Clause lists hold only events that pass; term postings hold them all.
            if (clauses > 0 || passes(ordinal)) add(ordinal, tf, clauses);
        }
    }

    // Match all with terms: the rarest term's postings, looked up in the
    // others, then every clause verified.
    void score_all_terms() {
        const size_t terms = query_.terms.size();
        if (std::find(lists_.begin(), lists_.end(), nullptr) != lists_.end()) return;
        std::vector<size_t> order(terms);
        for (size_t t = 0; t < terms; ++t) order[t] = t;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lists_[a]->size() < lists_[b]->size(); });
        const SearchIndex::Postings& rarest = *lists_[order.front()];
        std::vector<size_t> at(terms, 0);
        std::vector<uint32_t> tf(terms, 0);
        for (size_t i = 0; i < rarest.size(); ++i) {
            const Ordinal ordinal = rarest.ordinals[i];
            tf[order.front()] = index_.count(rarest, i);
            bool all = true;
            for (size_t k = 1; k < terms && all; ++k) {
                const SearchIndex::Postings& list = *lists_[order[k]];
                auto it = std::lower_bound(list.ordinals.begin() + static_cast<std::ptrdiff_t>(at[k]),
                                           list.ordinals.end(), ordinal);
                at[k] = static_cast<size_t>(it - list.ordinals.begin());
                all = it != list.ordinals.end() && *it == ordinal;
                if (all) tf[order[k]] = index_.count(list, at[k]);
            }
            if (!all || !passes(ordinal)) continue;
            if (!query_.clauses.empty()) {
                const std::string_view text = text_of(ordinal);
                if (!std::all_of(query_.clauses.begin(), query_.clauses.end(),
                                 [&](const std::string& clause) { return holds(text, clause); }))
                    continue;
            }
            add(ordinal, tf, query_.clauses.size());
        }
    }

    // Match all of clauses alone: the smallest candidate set of a clause,
    // every clause verified.
    void score_all_clauses() {
        std::optional<std::vector<Ordinal>> best;
        for (const std::string& clause : query_.clauses) {
            auto candidates = index_.clause_candidates(clause);
            if (candidates && (!best || candidates->size() < best->size())) best = std::move(candidates);
        }
        const std::vector<uint32_t> no_terms;
        auto consider = [&](Ordinal ordinal) {
            if (!passes(ordinal)) return;
            const std::string_view text = text_of(ordinal);
            if (std::all_of(query_.clauses.begin(), query_.clauses.end(),
                            [&](const std::string& clause) { return holds(text, clause); }))
                add(ordinal, no_terms, query_.clauses.size());
        };
        if (best) {
            for (Ordinal ordinal : *best) consider(ordinal);
        } else {
            for (size_t ordinal = 0; ordinal < index_.ordinal_end(); ++ordinal) consider(static_cast<Ordinal>(ordinal));
        }
    }

    // The tail, matched and scored by the host's rules on its split texts.
    void score_tail() {
        for (const TailDoc& doc : tail_) {
            size_t terms_held = 0;
            for (const std::string& term : query_.terms)
                if (host::term_frequency(doc.counts, term) > 0) ++terms_held;
            const size_t clauses = host::clauses_held(query_, doc.text);
            const bool match = query_.match_all
                                   ? terms_held == query_.terms.size() && clauses == query_.clauses.size()
                                   : terms_held + clauses > 0;
            if (!match) continue;
            scored_.push_back(
                ScoredEvent{host::relevance(query_, corpus_, doc.text, doc.counts, doc.length), doc.session, doc.seq});
        }
    }

    const SearchIndex& index_;
    const std::vector<EventKey>& tail_keys_;
    const host::Query& query_;
    SessionFilter& sessions_;
    host::Bm25Corpus corpus_;
    double bound_ = 0;
    std::vector<uint8_t> slot_states_;                  // by slot
    std::vector<const SearchIndex::Postings*> lists_;  // by query term; null: in no filed event
    std::vector<TailDoc> tail_;                         // the tail's documents through the filters
    std::vector<ScoredEvent> scored_;
};

}  // namespace

std::vector<ScoredEvent> score_events(const SearchIndexer::View& view, const host::Query& query,
                                      SessionFilter& sessions) {
    if (query.kind != host::QueryKind::Terms || query.empty()) return {};
    return Ranking(view, query, sessions).run();
}

}  // namespace mnemo::memory
