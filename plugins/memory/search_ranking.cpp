#include "search_ranking.h"

#include "bm25.h"
#include "best_sessions.h"
#include "max_score.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

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
    if (!in_scope(session)) return false;
    if (req_.exclude_session.ptr && session.id == view(req_.exclude_session)) return false;
    if (!req_.channel.ptr) return true;
    auto [slot, fresh] = channel_memo_.try_emplace(&session, false);
    if (fresh) slot->second = on_channel(session);
    return slot->second;
}

bool SessionFilter::on_channel(const SessionRec& session) const {
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

uint32_t ordinal_of(const Ordinal& ordinal) {
    return ordinal;
}

// A pending event of the scope, split on the fly: its length, and the
// count of each query term (only those are kept: no term is copied).
struct TailDoc {
    const SessionRec* session = nullptr;
    int64_t seq = 0;
    std::string_view text;
    std::vector<uint32_t> tf;  // by query term
    uint32_t length = 0;
};

class Ranking {
public:
    Ranking(const SearchIndexer::View& view, const host::Query& query, SessionFilter& sessions)
        : index_(view.index), tail_keys_(view.tail), query_(query), sessions_(sessions) {}

    // Match all: every match scored.
    std::vector<ScoredEvent> run_all() {
        count_statistics();
        if (std::find(query_.required.begin(), query_.required.end(), true) != query_.required.end()) {
            score_all_terms();
        } else {
            score_all_clauses();
        }
        score_tail();
        return std::move(scored_);
    }

    // Match any, for the `limit` best sessions (search_ranking.h).
    std::vector<ScoredEvent> run_best_sessions(size_t limit) {
        count_statistics();
        score_tail();
        if (limit == 0) return {};
        for (const std::string& clause : query_.clauses) clause_lists_.push_back(holding(clause));
        SessionWalk walk(*this, limit);
        for (const ScoredEvent& event : scored_) walk.note(event);
        host::max_score(walk);
        return walk.answer();
    }

private:
    enum : uint8_t { kOut = 0, kScope, kPass, kFail };

    // BM25's statistics over the scope, filed and pending: N, the lengths,
    // each term's df (a walk of its postings), then the idf and bounds.
    void count_statistics() {
        count_scope();
        corpus_.document_frequency.assign(query_.terms.size(), 0);
        split_tail();
        count_filed_frequencies();
        fix_corpus();
    }

    // The filed sessions in scope give N and the total length. Each session
    // read is a cache miss of its own: they are asked for a few ahead.
    void count_scope() {
        constexpr size_t kAhead = 8;
        const auto& sessions = index_.sessions();
        slot_states_.assign(sessions.size(), kOut);
        for (size_t slot = 0; slot < sessions.size(); ++slot) {
            if (slot + kAhead < sessions.size() && sessions[slot + kAhead].session) {
                const SessionRec& ahead = *sessions[slot + kAhead].session;
                __builtin_prefetch(&ahead.user);
                __builtin_prefetch(&ahead.expires_at_us);
                __builtin_prefetch(&ahead.deleted_at_us);
            }
            const SearchIndex::SessionTotals& totals = sessions[slot];
            if (!totals.session || !sessions_.in_scope(*totals.session)) continue;
            slot_states_[slot] = kScope;
            corpus_.documents += totals.filed;
            corpus_.total_length += static_cast<double>(totals.length);
        }
    }

    // The tail's documents of the scope: N, length and df count them too.
    void split_tail() {
        for (const EventKey& key : tail_keys_) {
            if (!sessions_.in_scope(*key.session)) continue;
            const EventRec* event = visible_event(*key.session, key.seq);
            if (!event) continue;
            corpus_.documents += 1;  // an event without text too: a document of no words
            if (event->search_text().empty()) continue;
            TailDoc doc{key.session, key.seq, event->search_text(), std::vector<uint32_t>(query_.terms.size(), 0), 0};
            host::for_each_term(doc.text, [&](size_t, size_t, std::string_view term) {
                ++doc.length;
                for (size_t t = 0; t < query_.terms.size(); ++t)
                    if (query_.terms[t] == term) ++doc.tf[t];
            });
            corpus_.total_length += doc.length;
            for (size_t t = 0; t < query_.terms.size(); ++t)
                if (doc.tf[t] > 0) corpus_.document_frequency[t] += 1;
            if (sessions_.passes(*key.session)) tail_.push_back(std::move(doc));
        }
    }

    const SearchIndex::Postings* list_of(size_t term) {
        if (lists_.empty())
            for (const std::string& t : query_.terms) lists_.push_back(index_.find(t));
        return lists_[term];
    }

    // df of the filed events in scope, a walk of each term's postings.
    void count_filed_frequencies() {
        for (size_t t = 0; t < query_.terms.size(); ++t) {
            const SearchIndex::Postings* list = list_of(t);
            if (!list) continue;
            size_t df = 0;
            for (Ordinal ordinal : list->ordinals) {
                const uint32_t slot = index_.slot(ordinal);
                if (slot != SearchIndex::kDeadSlot && slot_states_[slot] != kOut) ++df;
            }
            corpus_.document_frequency[t] += static_cast<double>(df);
        }
    }

    // Whether a slot's session (in scope) passes the session filters.
    bool slot_passes(uint32_t slot) {
        uint8_t& state = slot_states_[slot];
        if (state == kScope) state = sessions_.passes(*index_.sessions()[slot].session) ? kPass : kFail;
        return state == kPass;
    }

    // Whether a filed event is live, in scope and through the session filters.
    bool passes(Ordinal ordinal) {
        const uint32_t slot = index_.slot(ordinal);
        return slot != SearchIndex::kDeadSlot && slot_states_[slot] != kOut && slot_passes(slot);
    }

    std::string_view text_of(Ordinal ordinal) const {
        const EventKey& key = index_.filed(ordinal).key;
        const EventRec* event = visible_event(*key.session, key.seq);
        return event ? event->search_text() : std::string_view();
    }

    bool holds(std::string_view text, const std::string& clause) const {
        return host::find_ascii_icase(text, clause) != std::string_view::npos;
    }

    // relevance() of bm25.h from counts at hand: the same terms summed in the
    // same order (a term not held adds 0 there), clauses first.
    double relevance(const uint32_t* tf, uint32_t length, size_t clauses) const {
        double bm25 = 0;
        for (size_t t = 0; t < query_.terms.size(); ++t)
            if (tf[t] > 0) bm25 += host::bm25_share(idf_[t], average_, tf[t], length);
        return static_cast<double>(clauses) * bound_ + bm25;
    }

    // Once the corpus is whole: what every document's score shares.
    void fix_corpus() {
        bound_ = corpus_.bound();
        average_ = corpus_.average_length();
        idf_.clear();
        for (size_t t = 0; t < query_.terms.size(); ++t) idf_.push_back(corpus_.idf(t));
    }

    void add(Ordinal ordinal, const uint32_t* tf, size_t clauses) {
        const SearchIndex::Filed& filed = index_.filed(ordinal);
        scored_.push_back(ScoredEvent{relevance(tf, filed.length, clauses), filed.key.session, filed.key.seq});
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

    // A term's count in a filed event (0 when its postings lack it).
    uint32_t count_in(size_t term, Ordinal ordinal) {
        const SearchIndex::Postings* list = list_of(term);
        if (!list) return 0;
        auto it = std::lower_bound(list->ordinals.begin(), list->ordinals.end(), ordinal);
        if (it == list->ordinals.end() || *it != ordinal) return 0;
        return index_.count(*list, static_cast<size_t>(it - list->ordinals.begin()));
    }

    // Match all with required terms: the rarest one's postings, looked up in
    // the other required ones; the terms only a clause gives are counted
    // where they occur, and every clause is verified.
    void score_all_terms() {
        const size_t terms = query_.terms.size();
        std::vector<size_t> order;
        for (size_t t = 0; t < terms; ++t) {
            if (!query_.required[t]) continue;
            if (!list_of(t)) return;  // a required term in no filed event
            order.push_back(t);
        }
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return lists_[a]->size() < lists_[b]->size(); });
        const SearchIndex::Postings& rarest = *lists_[order.front()];
        std::vector<size_t> at(terms, 0);
        std::vector<uint32_t> tf(terms, 0);
        for (size_t i = 0; i < rarest.size(); ++i) {
            const Ordinal ordinal = rarest.ordinals[i];
            tf[order.front()] = index_.count(rarest, i);
            bool all = true;
            for (size_t k = 1; k < order.size() && all; ++k) {
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
            for (size_t t = 0; t < terms; ++t)
                if (!query_.required[t]) tf[t] = count_in(t, ordinal);
            add(ordinal, tf.data(), query_.clauses.size());
        }
    }

    // Match all of clauses alone: the smallest candidate set of a clause,
    // every clause verified; the clauses' own words still weigh the ranking.
    void score_all_clauses() {
        std::optional<std::vector<Ordinal>> best;
        for (const std::string& clause : query_.clauses) {
            auto candidates = index_.clause_candidates(clause);
            if (candidates && (!best || candidates->size() < best->size())) best = std::move(candidates);
        }
        std::vector<uint32_t> tf(query_.terms.size(), 0);
        auto consider = [&](Ordinal ordinal) {
            if (!passes(ordinal)) return;
            const std::string_view text = text_of(ordinal);
            if (!std::all_of(query_.clauses.begin(), query_.clauses.end(),
                             [&](const std::string& clause) { return holds(text, clause); }))
                return;
            for (size_t t = 0; t < tf.size(); ++t) tf[t] = count_in(t, ordinal);
            add(ordinal, tf.data(), query_.clauses.size());
        };
        if (best) {
            for (Ordinal ordinal : *best) consider(ordinal);
        } else {
            for (size_t ordinal = 0; ordinal < index_.ordinal_end(); ++ordinal) consider(static_cast<Ordinal>(ordinal));
        }
    }

    // The tail, matched (as mnemo_host.query_matches) and scored on its split texts.
    void score_tail() {
        for (const TailDoc& doc : tail_) {
            bool any_term = false, required_held = true;
            for (size_t t = 0; t < doc.tf.size(); ++t) {
                any_term = any_term || doc.tf[t] > 0;
                required_held = required_held && (doc.tf[t] > 0 || !query_.required[t]);
            }
            const size_t clauses = host::clauses_held(query_, doc.text);
            const bool match = query_.match_all ? required_held && clauses == query_.clauses.size()
                                                : any_term || clauses > 0;
            if (!match) continue;
            scored_.push_back(ScoredEvent{relevance(doc.tf.data(), doc.length, clauses), doc.session, doc.seq});
        }
    }

    // max_score.h's Source over the filed events: the query's term lists,
    // then its clause lists (the verified holders passing the filters, a
    // share of bound_ each). The threshold is the limit-th best session's
    // best event: a session ranks by its best event, so an event below it
    // can neither bring a session into the answer nor change one's rank.
    // The events it keeps are the walk's; answer() trades those of the
    // sessions that answer for every match of theirs (their hits).
    class SessionWalk {
    public:
        SessionWalk(Ranking& ranking, size_t limit)
            : r_(ranking), terms_(ranking.query_.terms.size()), bounds_(lists(), ranking.bound_), best_(limit) {
            for (size_t t = 0; t < terms_; ++t) {
                const SearchIndex::Postings* list = r_.list_of(t);
                bounds_[t] = list ? host::bm25_share(r_.idf_[t], r_.average_, list->max_count, list->min_length) : 0;
            }
        }

        size_t lists() const { return terms_ + r_.clause_lists_.size(); }
        using List = host::DocList<Ordinal, &ordinal_of>;
        List docs(size_t list) const {
            const std::vector<Ordinal>* ordinals =
                list >= terms_ ? &r_.clause_lists_[list - terms_] : r_.lists_[list] ? &r_.lists_[list]->ordinals : nullptr;
            return ordinals ? List{ordinals->data(), ordinals->size()} : List{};
        }
        uint32_t count(size_t list, size_t i) const {
            return list < terms_ ? r_.index_.count(*r_.lists_[list], i) : 1;
        }
        double bound(size_t list) const { return bounds_[list]; }
        bool length(uint32_t ordinal, uint32_t* length) {
            if (!r_.passes(ordinal)) return false;
            *length = r_.index_.length(ordinal);
            return true;
        }
        double share(size_t list, uint32_t count, uint32_t length) const {
            if (count == 0) return 0;
            return list < terms_ ? host::bm25_share(r_.idf_[list], r_.average_, count, length) : r_.bound_;
        }
        double threshold() const { return best_.threshold(); }
        void keep(uint32_t ordinal, const std::vector<uint32_t>& counts, uint32_t length) {
            uint32_t clauses = 0;
            for (size_t c = terms_; c < counts.size(); ++c) clauses += counts[c];
            const SearchIndex::Filed& filed = r_.index_.filed(ordinal);
            const ScoredEvent event{r_.relevance(counts.data(), length, clauses), filed.key.session, filed.key.seq};
            if (event.relevance < threshold()) return;
            walked_.push_back(event);
            note(event);
        }

        // An event the session's rank may take (it passes the role filter).
        void note(const ScoredEvent& event) {
            if (role_passes(event)) best_.note(event.session, event.relevance);
        }

        // The tail's matches, the walk's events of the sessions that do not
        // answer, and every filed match of those that may (their best event
        // at the threshold or above, ties included).
        std::vector<ScoredEvent> answer() {
            std::vector<uint8_t> answering(r_.index_.sessions().size(), 0);
            absl::flat_hash_set<const SessionRec*> answers;
            best_.for_each_answering([&](const SessionRec* session) { answers.insert(session); });
            for (size_t slot = 0; slot < answering.size(); ++slot) {
                const SessionRec* session = r_.index_.sessions()[slot].session;
                answering[slot] = session && answers.contains(session) ? 1 : 0;
            }
            std::vector<ScoredEvent> events = std::move(r_.scored_);
            for (const ScoredEvent& event : walked_)
                if (!answers.contains(event.session)) events.push_back(event);
            r_.score_sessions(answering, events);
            return events;
        }

    private:
        bool role_passes(const ScoredEvent& event) const {
            const mnemo_search_req& req = r_.sessions_.req();
            if (!req.role.ptr) return true;
            const EventRec* rec = visible_event(*event.session, event.seq);
            return rec && rec->role() == view(req.role);
        }

        Ranking& r_;
        const size_t terms_;
        std::vector<double> bounds_;      // per list
        std::vector<ScoredEvent> walked_;  // the filed events kept, their rank taken or not
        host::BestSessions<const SessionRec*> best_;  // by their best event passing the role
    };

    // Every filed match of the sessions whose slots are marked, scored: a
    // walk of the query's lists that keeps their postings only.
    void score_sessions(const std::vector<uint8_t>& marked, std::vector<ScoredEvent>& out) {
        const size_t terms = query_.terms.size();
        absl::flat_hash_map<Ordinal, size_t> at;  // ordinal -> its row in tf / clauses
        std::vector<uint32_t> tf, clauses;
        std::vector<Ordinal> ordinals;
        auto row_of = [&](Ordinal ordinal) {
            auto [it, fresh] = at.try_emplace(ordinal, ordinals.size());
            if (fresh) {
                ordinals.push_back(ordinal);
                tf.resize(tf.size() + terms, 0);
                clauses.push_back(0);
            }
            return it->second;
        };
        auto in_marked = [&](Ordinal ordinal) {
            const uint32_t slot = index_.slot(ordinal);
            return slot != SearchIndex::kDeadSlot && marked[slot] != 0;
        };
        for (size_t t = 0; t < terms; ++t) {
            const SearchIndex::Postings* list = list_of(t);
            if (!list) continue;
            for (size_t i = 0; i < list->size(); ++i)
                if (in_marked(list->ordinals[i])) tf[row_of(list->ordinals[i]) * terms + t] = index_.count(*list, i);
        }
        for (const std::vector<Ordinal>& holders : clause_lists_)
            for (Ordinal ordinal : holders)
                if (in_marked(ordinal)) ++clauses[row_of(ordinal)];
        for (size_t row = 0; row < ordinals.size(); ++row) {
            const SearchIndex::Filed& filed = index_.filed(ordinals[row]);
            out.push_back(ScoredEvent{relevance(tf.data() + row * terms, filed.length, clauses[row]),
                                      filed.key.session, filed.key.seq});
        }
    }

    const SearchIndex& index_;
    const std::vector<EventKey>& tail_keys_;
    const host::Query& query_;
    SessionFilter& sessions_;
    host::Bm25Corpus corpus_;
    double bound_ = 0;
    double average_ = 1;
    std::vector<double> idf_;  // per query term, once the corpus is whole
    std::vector<uint8_t> slot_states_;                  // by slot
    std::vector<const SearchIndex::Postings*> lists_;  // by query term; null: in no filed event
    std::vector<TailDoc> tail_;                         // the tail's documents through the filters
    struct Candidate {
        Ordinal ordinal;
        uint32_t clauses;
    };
    std::vector<std::vector<Ordinal>> clause_lists_;  // best sessions: each clause's holders passing the filters
    std::vector<Candidate> candidates_;       // match any, before the corpus is whole
    std::vector<uint32_t> candidate_counts_;  // their term counts, query.terms.size() each
    std::vector<ScoredEvent> scored_;
};

}  // namespace

std::vector<ScoredEvent> score_best_sessions(const SearchIndexer::View& view, const host::Query& query,
                                             SessionFilter& sessions, size_t limit) {
    if (query.kind != host::QueryKind::Terms || query.empty()) return {};
    if (query.match_all) return Ranking(view, query, sessions).run_all();
    return Ranking(view, query, sessions).run_best_sessions(limit);
}

}  // namespace mnemo::memory
