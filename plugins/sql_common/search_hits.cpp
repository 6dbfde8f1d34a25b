#include "search_hits.h"

#include "event_rows.h"
#include "session_rows.h"

#include <algorithm>

namespace mnemo::MNEMO_SQL_BACKEND {

void emit_session_hits(Conn& conn, const mnemo_search_req& req, int64_t sid, std::vector<int64_t>& seqs, Output& out) {
    std::sort(seqs.begin(), seqs.end());
    if (static_cast<int64_t>(seqs.size()) > req.max_hits) seqs.resize(static_cast<size_t>(req.max_hits));
    emit_session(conn, sid, out);
    for (int64_t seq : seqs) {
        out.result(SearchHit{seq});
        emit_context(conn, sid, seq, std::max<int64_t>(req.context, 0), out);
    }
}

}  // namespace mnemo::MNEMO_SQL_BACKEND
