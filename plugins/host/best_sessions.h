// best_sessions.h -- the threshold of a transcript search's MaxScore walk
// (max_score.h): a session ranks by its best event, so the walk keeps the
// best event met per session and the `limit` best of those; an event below
// the limit-th best session's best can neither bring a session into the
// answer nor change one's rank. The memory backend's walk and the SQL
// backends' (plugins/sql/transcript_ranking.cpp) share it; Session is what
// names a session there (a record's address, a slot).
#pragma once

#include <cstddef>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

namespace mnemo::host {

template <typename Session>
class BestSessions {
public:
    explicit BestSessions(size_t limit) : limit_(limit) {}

    // -infinity until `limit` sessions were met: every event counts then.
    double threshold() const {
        return top_.size() < limit_ ? -std::numeric_limits<double>::infinity() : top_.begin()->first;
    }

    // An event of session that may take the session's rank.
    void note(Session session, double relevance) {
        auto [best, fresh] = best_.try_emplace(session, relevance);
        if (!fresh) {
            if (relevance <= best->second) return;
            auto in_top = top_.find({best->second, session});
            best->second = relevance;
            if (in_top != top_.end()) {
                top_.erase(in_top);
                top_.emplace(relevance, session);
                return;
            }
        }
        if (top_.size() < limit_) {
            top_.emplace(relevance, session);
        } else if (relevance > top_.begin()->first) {
            top_.erase(top_.begin());
            top_.emplace(relevance, session);
        }
    }

    // fn(session) for every session met whose best reaches the threshold
    // (ties included): the answer is among them.
    template <typename Fn>
    void for_each_answering(Fn&& fn) const {
        const double threshold = this->threshold();
        for (const auto& [session, best] : best_)
            if (best >= threshold) fn(session);
    }

private:
    const size_t limit_;
    std::unordered_map<Session, double> best_;   // per session met: its best event
    std::set<std::pair<double, Session>> top_;  // the `limit` best sessions' bests, worst first
};

}  // namespace mnemo::host
