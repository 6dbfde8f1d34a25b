#include "search_hits.h"

#include "dialect.h"
#include "event_rows.h"
#include "rules.h"
#include "session_rows.h"

#include <algorithm>
#include <map>

namespace mnemo::sqlcore {
namespace {

void emit_session_hits(Db& db, const mnemo_search_req& req, HitGroup& group, Output& out) {
    std::vector<int64_t>& seqs = group.seqs;
    std::sort(seqs.begin(), seqs.end());
    if (static_cast<int64_t>(seqs.size()) > req.max_hits) seqs.resize(static_cast<size_t>(req.max_hits));
    emit_session(db, group.sid, out);
    for (int64_t seq : seqs) {
        out.result(SearchHit{seq});
        emit_context(db, group.sid, seq, std::max<int64_t>(req.context, 0), out);
    }
}

void emit_recent_sessions(Db& db, const mnemo_search_req& req, Output& out) {
    Query rows(db, db.dialect().search_recent);
    rows.args(req.app, req.now_us, req.user, req.user, req.exclude_session, req.exclude_session, req.channel,
              req.channel, req.channel, req.limit);
    while (rows.step()) emit_session_row(rows, out);
}

// The candidates whose search text holds the query, by session.
std::vector<HitGroup> verified_groups(Db& db, const mnemo_search_req& req, const host::Query& query,
                                      const SearchPlan& plan) {
    Query rows(db, plan.sql);
    rows.args(std::string_view(plan.first), req.app, req.now_us, req.user, req.user, req.exclude_session,
              req.exclude_session, req.channel, req.channel, req.channel, req.role, req.role);
    std::map<int64_t, HitGroup> by_sid;
    while (rows.step()) {
        if (!host::matches(query, view(rows.str(5)))) continue;
        auto [slot, fresh] = by_sid.try_emplace(rows.i64(0));
        HitGroup& group = slot->second;
        if (fresh) group = HitGroup{rows.i64(0), rows.f64(2), rows.i64(3), rows.text(4), {}};
        group.best = std::min(group.best, rows.f64(2));
        group.seqs.push_back(rows.i64(1));
    }
    std::vector<HitGroup> groups;
    for (auto& [sid, group] : by_sid) groups.push_back(std::move(group));
    return groups;
}

}  // namespace

void search_sessions(Db& db, const mnemo_search_req& req, const std::function<SearchPlan(const host::Query&)>& plan,
                     bool (*ranks_before)(const HitGroup&, const HitGroup&), Output& out) {
    const host::Query query = host::parse_query(view(req.q));
    if (query.kind == host::QueryKind::Recent) return emit_recent_sessions(db, req, out);
    std::vector<HitGroup> ranked = verified_groups(db, req, query, plan(query));
    std::sort(ranked.begin(), ranked.end(), ranks_before);
    if (static_cast<int64_t>(ranked.size()) > req.limit) ranked.resize(static_cast<size_t>(req.limit));
    for (HitGroup& group : ranked) emit_session_hits(db, req, group, out);
}

}  // namespace mnemo::sqlcore
