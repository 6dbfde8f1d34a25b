#include "search_hits.h"

#include "dialect.h"
#include "event_rows.h"
#include "session_rows.h"

#include <algorithm>

namespace mnemo::sqlcore {

void emit_session_hits(Db& db, const mnemo_search_req& req, int64_t sid, std::vector<int64_t>& seqs, Output& out) {
    std::sort(seqs.begin(), seqs.end());
    if (static_cast<int64_t>(seqs.size()) > req.max_hits) seqs.resize(static_cast<size_t>(req.max_hits));
    emit_session(db, sid, out);
    for (int64_t seq : seqs) {
        out.result(SearchHit{seq});
        emit_context(db, sid, seq, std::max<int64_t>(req.context, 0), out);
    }
}

void emit_recent_sessions(Db& db, const mnemo_search_req& req, Output& out) {
    Query rows(db, db.dialect().search_recent);
    rows.args(req.app, req.now_us, req.user, req.user, req.exclude_session, req.exclude_session, req.channel,
              req.channel, req.channel, req.limit);
    while (rows.step()) emit_session_row(rows, out);
}

}  // namespace mnemo::sqlcore
