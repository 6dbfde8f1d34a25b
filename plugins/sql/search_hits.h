// search_hits.h -- the end of a search both SQL backends share: one ranked
// session's hits, cut to the request's max_hits and written as the ABI's
// search rows (mnemo_plugin.h): the session, then for each hit, oldest first,
// search_hit(seq) and its context events. Ranking and the session limit
// stay with each backend (sqlite ranks by bm25, mysql by hit count).
#pragma once

#include "db.h"
#include "output.h"

#include <cstdint>
#include <vector>

namespace mnemo::sqlcore {

// Sorts and cuts seqs in place.
void emit_session_hits(Db& db, const mnemo_search_req& req, int64_t sid, std::vector<int64_t>& seqs, Output& out);

// The first req.limit of the ranked sessions (each with its sid and hit
// seqs), with their hits.
template <typename Group>
void emit_ranked_hits(Db& db, const mnemo_search_req& req, std::vector<Group>& ranked, Output& out) {
    if (static_cast<int64_t>(ranked.size()) > req.limit) ranked.resize(static_cast<size_t>(req.limit));
    for (Group& group : ranked) emit_session_hits(db, req, group.sid, group.seqs, out);
}

// Search with an empty q: the most recently updated live sessions passing
// the request's filters, newest first (Dialect::search_recent).
void emit_recent_sessions(Db& db, const mnemo_search_req& req, Output& out);

}  // namespace mnemo::sqlcore
