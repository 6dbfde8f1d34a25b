// app_list and user_list (ABI 7): the apps and users holding data (a live
// session or a live memory) with their counts, in one read snapshot. The
// statements are plain SQL every engine of the core runs as written
// (UNION ALL, GROUP BY, HAVING over derived tables), so a dialect adds
// nothing for them. They group every live row of their scope: an
// operator's occasional look, not a hot path.
#include "memory_rows.h"
#include "sql_ops.h"

#include <string>

namespace mnemo::sqlcore {
namespace {

// Per (keys..., user): s sessions, e their events, m memories, t the latest
// updated_at, from the live sessions and the live memories whose rows pass
// `where` (each table's own parameters: where's, then now).
std::string live_rows_by_user(const std::string& keys, const std::string& where) {
    return "SELECT " + keys + ", COUNT(*) AS s, SUM(event_count) AS e, 0 AS m, MAX(updated_at) AS t FROM sessions " +
           "WHERE " + where + "deleted_at = 0 AND (expires_at = 0 OR expires_at > +?) GROUP BY " + keys +
           " UNION ALL SELECT " + keys + ", 0, 0, COUNT(*), MAX(updated_at) FROM memories WHERE " + where +
           "(expires_at = 0 OR expires_at > +?) GROUP BY " + keys;
}

// (now, now): app, users, sessions, events, memories, last active; by app.
const std::string kAppActivitySql =
    "SELECT app, COUNT(*), SUM(s), SUM(e), SUM(m), MAX(t) FROM (SELECT app, user, SUM(s) AS s, SUM(e) AS e, "
    "SUM(m) AS m, MAX(t) AS t FROM (" +
    live_rows_by_user("app, user", "") + ") r GROUP BY app, user) u GROUP BY app ORDER BY app";

// (app, now, app, now, cursor x3, cursor_user, limit): user, sessions,
// events, memories, last active; most recently active first.
const std::string kUserActivitySql = "SELECT user, SUM(s), SUM(e), SUM(m), MAX(t) FROM (" +
                                     live_rows_by_user("user", "app = ? AND ") +
                                     ") r GROUP BY user HAVING ? = 0 OR MAX(t) < ? OR (MAX(t) = ? AND user < ?) "
                                     "ORDER BY MAX(t) DESC, user DESC LIMIT ?";

}  // namespace

void app_list(Db& db, const mnemo_app_list_req& req, Output& out) {
    Query query(db, kAppActivitySql);
    query.args(req.now_us, req.now_us);
    while (query.step())
        out.activity(mnemo_activity{query.str(0), query.i64(1), query.i64(2), query.i64(3), query.i64(4),
                                    query.i64(5)});
}

void user_list(Db& db, const mnemo_user_list_req& req, Output& out) {
    require_memory_limit("user list", req.limit);
    Query query(db, kUserActivitySql);
    const mnemo_str cursor_user = req.cursor_user.ptr ? req.cursor_user : mnemo_str{"", 0};
    query.args(req.app, req.now_us, req.app, req.now_us, req.cursor_active_at_us, req.cursor_active_at_us,
               req.cursor_active_at_us, cursor_user, req.limit);
    while (query.step())
        out.activity(mnemo_activity{query.str(0), 0, query.i64(1), query.i64(2), query.i64(3), query.i64(4)});
}

}  // namespace mnemo::sqlcore
