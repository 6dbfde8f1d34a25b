// search_hits.h -- a search (mnemo_search_req) as both SQL backends run it:
// the backend picks the statement whose rows are the candidate events (its
// own index), the core verifies each candidate against the host's word rules
// (so every backend agrees to the byte), groups the hits by session, ranks
// the sessions with the backend's order (sqlite by bm25, mysql by hit count),
// and writes the first req.limit as the ABI's search rows (mnemo_plugin.h):
// the session, then for each hit, oldest first and cut to max_hits,
// search_hit(seq) and its context events.
#pragma once

#include "db.h"
#include "host_services.h"
#include "output.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

// The candidate events of a query: sql's rows are (sid, seq, rank: lower is
// better, the session's updated_at and id, the event's search text); its
// parameters are `first`, then app, now, user x2, exclude_session x2,
// channel x3, role x2.
struct SearchPlan {
    std::string sql;
    std::string first;
};

// One session's verified hits; best is the lowest rank among them.
struct HitGroup {
    int64_t sid = 0;
    double best = 0;
    int64_t updated_at_us = 0;
    std::string id;
    std::vector<int64_t> seqs;
};

// Runs a search: an empty q lists the most recently updated live sessions
// passing the request's filters, newest first (Dialect::search_recent); any
// other q runs plan's statement and ranks the verified sessions with
// ranks_before (true when a comes before b).
void search_sessions(Db& db, const mnemo_search_req& req, const std::function<SearchPlan(const host::Query&)>& plan,
                     bool (*ranks_before)(const HitGroup&, const HitGroup&), Output& out);

}  // namespace mnemo::sqlcore
