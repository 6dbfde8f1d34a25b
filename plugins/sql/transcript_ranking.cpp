#include "transcript_ranking.h"

#include "best_sessions.h"
#include "bm25.h"
#include "dialect.h"
#include "event_keys.h"
#include "max_score.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <unordered_map>

namespace mnemo::sqlcore {
namespace {

using Ordinal = TranscriptIndex::Ordinal;

uint32_t ordinal_of(const Ordinal& ordinal) {
    return ordinal;
}

class Ranking {
public:
    Ranking(Db& db, const TranscriptIndex& index, const std::vector<ScopeSession>& scope, const host::Query& query,
            const mnemo_search_req& req)
        : db_(db), index_(index), scope_(scope), query_(query), req_(req) {}

    std::vector<RankedSession> run() {
        count_scope();
        count_frequencies();
        fix_corpus();
        const auto limit = static_cast<size_t>(std::max<int64_t>(req_.limit, 0));
        if (limit == 0 || (req_.role.ptr && !role_)) return {};
        for (const std::string& clause : query_.clauses) clause_lists_.push_back(holding(clause));
        SessionWalk walk(*this, limit);
        host::max_score(walk);
        return answer(walk.answering());
    }

private:
    enum : uint8_t { kOut = 0, kScope, kPass };

    // N and the total length as search_hits.h counts them (the session rows'
    // numbers, and the length of the events they do not count yet); which
    // slots are in scope and which pass the session filters.
    void count_scope() {
        states_.assign(index_.sessions().size(), kOut);
        rows_.assign(index_.sessions().size(), nullptr);
        for (const ScopeSession& row : scope_) {
            const uint32_t slot = *index_.slot_of(row.sid);
            states_[slot] = row.passes ? kPass : kScope;
            rows_[slot] = &row;
            corpus_.documents += static_cast<double>(row.signature.event_count);
            corpus_.total_length += static_cast<double>(row.signature.search_terms);
            uncounted_length_ += index_.sessions()[slot].uncounted_length;
        }
        corpus_.total_length += uncounted_length_;
        if (req_.role.ptr) role_ = index_.role_id(view(req_.role));
    }

    // Each term's df over the scope: a walk of its postings, or its size
    // when the scope is every session held and no ordinal is dead.
    void count_frequencies() {
        corpus_.document_frequency.assign(query_.terms.size(), 0);
        for (const std::string& term : query_.terms) lists_.push_back(index_.find(term));
        const bool whole = index_.all_live() && scope_.size() == index_.session_count();
        for (size_t t = 0; t < lists_.size(); ++t) {
            if (!lists_[t]) continue;
            if (whole) {
                corpus_.document_frequency[t] = static_cast<double>(lists_[t]->ordinals.size());
                continue;
            }
            size_t df = 0;
            for (Ordinal ordinal : lists_[t]->ordinals) {
                const uint32_t slot = index_.slot(ordinal);
                if (slot != TranscriptIndex::kDeadSlot && states_[slot] != kOut) ++df;
            }
            corpus_.document_frequency[t] = static_cast<double>(df);
        }
    }

    void fix_corpus() {
        average_ = corpus_.average_length();
        bound_ = corpus_.bound();
        for (size_t t = 0; t < query_.terms.size(); ++t) idf_.push_back(corpus_.idf(t));
    }

    // The events passing the filters that hold clause verbatim, ascending:
    // those holding every whole word of it (their lists intersected) whose
    // text, read back, holds it.
    std::vector<Ordinal> holding(const std::string& clause) const {
        std::vector<Ordinal> candidates;
        bool first = true;
        for (const std::string& term : clause_whole_terms(clause)) {
            const TranscriptIndex::Postings* list = index_.find(term);
            if (!list) return {};
            std::vector<Ordinal> kept;
            if (first) {
                for (Ordinal ordinal : list->ordinals)
                    if (passes(ordinal)) kept.push_back(ordinal);
            } else {
                std::set_intersection(candidates.begin(), candidates.end(), list->ordinals.begin(),
                                      list->ordinals.end(), std::back_inserter(kept));
            }
            candidates = std::move(kept);
            first = false;
        }
        return verified(candidates, clause);
    }

    // The candidates whose text holds clause, ascending.
    std::vector<Ordinal> verified(const std::vector<Ordinal>& candidates, const std::string& clause) const {
        std::map<EventKey, Ordinal> asked;
        std::vector<EventKey> keys;
        keys.reserve(candidates.size());
        for (Ordinal ordinal : candidates) {
            const EventKey key{index_.sessions()[index_.slot(ordinal)].sid, index_.seq(ordinal)};
            asked.emplace(key, ordinal);
            keys.push_back(key);
        }
        std::vector<Ordinal> found;
        for_each_event_at(db_, std::move(keys), "sid, seq, COALESCE(search_text, '')", [&](const Query& text) {
            auto it = asked.find({text.i64(0), text.i64(1)});
            if (it != asked.end() && host::find_ascii_icase(view(text.str(2)), clause) != std::string_view::npos)
                found.push_back(it->second);
        });
        std::sort(found.begin(), found.end());
        return found;
    }

    // How many clauses' holders hold the ordinal.
    uint32_t clauses_of(Ordinal ordinal) const {
        uint32_t held = 0;
        for (const std::vector<Ordinal>& holders : clause_lists_)
            held += std::binary_search(holders.begin(), holders.end(), ordinal) ? 1 : 0;
        return held;
    }

    // Live, through the session filters and the role filter.
    bool passes(Ordinal ordinal) const {
        const uint32_t slot = index_.slot(ordinal);
        return slot != TranscriptIndex::kDeadSlot && states_[slot] == kPass &&
               (!role_ || index_.role(ordinal) == *role_);
    }

    double share(size_t term, uint32_t count, uint32_t length) const {
        return count == 0 ? 0 : host::bm25_share(idf_[term], average_, count, length);
    }

    // bm25.h's relevance: the terms' shares in the query's order, above
    // them the corpus's bound per clause held.
    double relevance(const uint32_t* counts, uint32_t length, uint32_t clauses) const {
        double bm25 = 0;
        for (size_t t = 0; t < query_.terms.size(); ++t) bm25 += share(t, counts[t], length);
        return static_cast<double>(clauses) * bound_ + bm25;
    }

    // max_score.h's Source over the query's term lists, then its clause
    // lists (the verified holders, the corpus's bound each); the threshold
    // is the limit-th best session's best event.
    class SessionWalk {
    public:
        SessionWalk(const Ranking& ranking, size_t limit)
            : r_(ranking), terms_(ranking.lists_.size()), bounds_(lists(), ranking.bound_), best_(limit) {
            for (size_t t = 0; t < terms_; ++t) {
                const TranscriptIndex::Postings* list = r_.lists_[t];
                bounds_[t] = list ? r_.share(t, list->max_count, list->min_length) : 0;
            }
        }

        size_t lists() const { return terms_ + r_.clause_lists_.size(); }
        using List = host::DocList<Ordinal, &ordinal_of>;
        List docs(size_t list) const {
            const std::vector<Ordinal>* ordinals = list >= terms_ ? &r_.clause_lists_[list - terms_]
                                                   : r_.lists_[list]     ? &r_.lists_[list]->ordinals
                                                                         : nullptr;
            return ordinals ? List{ordinals->data(), ordinals->size()} : List{};
        }
        uint32_t count(size_t list, size_t i) const {
            return list < terms_ ? r_.index_.count(*r_.lists_[list], i) : 1;
        }
        double bound(size_t list) const { return bounds_[list]; }
        bool length(uint32_t ordinal, uint32_t* length) const {
            if (!r_.passes(ordinal)) return false;
            *length = r_.index_.length(ordinal);
            return true;
        }
        double share(size_t list, uint32_t count, uint32_t length) const {
            if (list < terms_) return r_.share(list, count, length);
            return count == 0 ? 0 : r_.bound_;
        }
        double threshold() const { return best_.threshold(); }
        void keep(uint32_t ordinal, const std::vector<uint32_t>& counts, uint32_t length) {
            uint32_t clauses = 0;
            for (size_t c = terms_; c < counts.size(); ++c) clauses += counts[c];
            const double relevance = r_.relevance(counts.data(), length, clauses);
            if (relevance >= threshold()) best_.note(r_.index_.slot(ordinal), relevance);
        }

        // The slots of the sessions that may answer.
        std::vector<uint8_t> answering() const {
            std::vector<uint8_t> marked(r_.index_.sessions().size(), 0);
            best_.for_each_answering([&](uint32_t slot) { marked[slot] = 1; });
            return marked;
        }

    private:
        const Ranking& r_;
        const size_t terms_;
        std::vector<double> bounds_;        // per list
        host::BestSessions<uint32_t> best_;  // by slot
    };

    // Every hit of the marked sessions, scored.
    std::vector<RankedSession> answer(const std::vector<uint8_t>& marked) const {
        std::vector<Ordinal> ordinals;
        std::vector<uint32_t> tf;
        if (few_events(marked)) {
            look_up_hits(marked, ordinals, tf);
        } else {
            walk_hits(marked, ordinals, tf);
        }
        const size_t width = query_.terms.size() + 1;
        std::unordered_map<uint32_t, size_t> session_of;  // slot -> its place in the answer
        std::vector<RankedSession> sessions;
        for (size_t row = 0; row < ordinals.size(); ++row) {
            const Ordinal ordinal = ordinals[row];
            const uint32_t slot = index_.slot(ordinal);
            auto [at, fresh] = session_of.try_emplace(slot, sessions.size());
            if (fresh) {
                const ScopeSession& scope_row = *rows_[slot];
                sessions.push_back(RankedSession{scope_row.sid, scope_row.updated_at_us, scope_row.id, {}, -1});
            }
            RankedSession& session = sessions[at->second];
            const uint32_t* counts = tf.data() + row * width;
            const double relevance = this->relevance(counts, index_.length(ordinal), counts[width - 1]);
            session.hits.push_back(RankedHit{index_.seq(ordinal), relevance});
            session.best = std::max(session.best, relevance);
        }
        return sessions;
    }

    // Whether the marked sessions' events are far fewer than the lists'
    // postings: then each is looked up in the lists, else the lists walked.
    // Either way a hit's row in tf is its count of each term, then of the
    // clauses it holds.
    bool few_events(const std::vector<uint8_t>& marked) const {
        size_t events = 0, postings = 0;
        for (uint32_t slot = 0; slot < marked.size(); ++slot)
            if (marked[slot]) events += index_.sessions()[slot].ordinals.size();
        for (const TranscriptIndex::Postings* list : lists_)
            if (list) postings += list->ordinals.size();
        return events * query_.terms.size() * 16 < postings;
    }

    // The marked sessions' events, each looked up in the term lists (a
    // session's ordinals ascend, so each list's search starts where the
    // last one ended); those holding a term and passing the filters are
    // hits, their counts in tf (terms per row).
    void look_up_hits(const std::vector<uint8_t>& marked, std::vector<Ordinal>& ordinals,
                      std::vector<uint32_t>& tf) const {
        const size_t terms = query_.terms.size();
        std::vector<uint32_t> counts(terms + 1, 0);
        for (uint32_t slot = 0; slot < marked.size(); ++slot) {
            if (!marked[slot]) continue;
            std::vector<size_t> from(terms, 0);
            for (Ordinal ordinal : index_.sessions()[slot].ordinals) {
                if (!passes(ordinal)) continue;
                bool held = false;
                for (size_t t = 0; t < terms; ++t) {
                    counts[t] = 0;
                    if (!lists_[t]) continue;
                    const std::vector<Ordinal>& list = lists_[t]->ordinals;
                    const auto start = list.begin() + static_cast<std::ptrdiff_t>(from[t]);
                    auto it = std::lower_bound(start, list.end(), ordinal);
                    from[t] = static_cast<size_t>(it - list.begin());
                    if (it == list.end() || *it != ordinal) continue;
                    counts[t] = index_.count(*lists_[t], from[t]);
                    held = true;
                }
                counts[terms] = clauses_of(ordinal);
                if (!held && counts[terms] == 0) continue;
                ordinals.push_back(ordinal);
                tf.insert(tf.end(), counts.begin(), counts.end());
            }
        }
    }

    // The same by a walk of the query's lists keeping the marked sessions'
    // postings only.
    void walk_hits(const std::vector<uint8_t>& marked, std::vector<Ordinal>& ordinals,
                   std::vector<uint32_t>& tf) const {
        const size_t terms = query_.terms.size(), width = terms + 1;
        std::unordered_map<Ordinal, size_t> row_of;  // ordinal -> its row in tf
        auto row_for = [&](Ordinal ordinal) {
            auto [row, fresh] = row_of.try_emplace(ordinal, ordinals.size());
            if (fresh) {
                ordinals.push_back(ordinal);
                tf.resize(tf.size() + width, 0);
            }
            return row->second;
        };
        auto counted = [&](Ordinal ordinal) {
            const uint32_t slot = index_.slot(ordinal);
            return slot != TranscriptIndex::kDeadSlot && marked[slot] && passes(ordinal);
        };
        for (size_t t = 0; t < terms; ++t) {
            const TranscriptIndex::Postings* list = lists_[t];
            if (!list) continue;
            for (size_t i = 0; i < list->ordinals.size(); ++i)
                if (counted(list->ordinals[i])) tf[row_for(list->ordinals[i]) * width + t] = index_.count(*list, i);
        }
        for (const std::vector<Ordinal>& holders : clause_lists_)
            for (Ordinal ordinal : holders)
                if (counted(ordinal)) ++tf[row_for(ordinal) * width + terms];
    }

    Db& db_;
    const TranscriptIndex& index_;
    const std::vector<ScopeSession>& scope_;
    const host::Query& query_;
    const mnemo_search_req& req_;
    host::Bm25Corpus corpus_;
    double uncounted_length_ = 0;
    double average_ = 1;
    double bound_ = 0;  // above any score of terms alone: a clause's weight
    std::vector<double> idf_;                               // per query term
    std::vector<const TranscriptIndex::Postings*> lists_;  // per query term; null: held by no event
    std::vector<uint8_t> states_;                           // by slot
    std::vector<const ScopeSession*> rows_;                 // by slot: its scope row, null when out of scope
    std::optional<uint32_t> role_;                          // the role filter's id, when some event holds it
    std::vector<std::vector<Ordinal>> clause_lists_;        // per clause: its verified holders passing the filters
};

}  // namespace

bool ranks_from_index(const host::Query& query, bool clauses) {
    if (query.kind != host::QueryKind::Terms || query.match_all || query.terms.empty()) return false;
    if (!clauses && !query.clauses.empty()) return false;
    return std::all_of(query.clauses.begin(), query.clauses.end(),
                       [](const std::string& clause) { return !clause_whole_terms(clause).empty(); });
}

std::vector<RankedSession> rank_from_index(Db& db, const TranscriptIndex& index, const std::vector<ScopeSession>& scope,
                                           const host::Query& query, const mnemo_search_req& req) {
    return Ranking(db, index, scope, query, req).run();
}

bool search_from_index(Db& db, TranscriptCache& cache, const mnemo_search_req& req, Output& out) {
    const host::Query query = host::parse_query(view(req.q), req.match);
    if (!ranks_from_index(query, db.dialect().packed_clauses)) return false;
    if (cache.rare(view(req.app), query.terms, db.dialect().rare_holders_per_session)) return false;
    std::vector<RankedSession> ranked;
    cache.with_scope(db, req, [&](const TranscriptIndex& index, const std::vector<ScopeSession>& scope) {
        ranked = rank_from_index(db, index, scope, query, req);
    });
    emit_ranked_sessions(db, req, std::move(ranked), out);
    return true;
}

}  // namespace mnemo::sqlcore
