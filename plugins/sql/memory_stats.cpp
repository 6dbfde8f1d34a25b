#include "memory_stats.h"

#include "dialect.h"
#include "term_list.h"

#include <algorithm>

namespace mnemo::sqlcore {
namespace {

std::string_view stats_term(std::string_view term) {
    return term.substr(0, std::min(term.size(), kStatsTermBytes));
}

}  // namespace

void count_memory_terms(Db& db, std::string_view app, std::string_view list, int sign) {
    std::vector<std::string_view> distinct;
    int64_t length = 0;
    host::for_each_listed_term(list, [&](std::string_view term) {
        distinct.push_back(stats_term(term));
        ++length;
    });
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const Dialect& dialect = db.dialect();
    Query(db, dialect.memory_app_stats_add).args(app, static_cast<int64_t>(sign), sign * length).run();
    for (std::string_view term : distinct)
        Query(db, dialect.memory_term_stats_add).args(app, term, static_cast<int64_t>(sign)).run();
}

std::optional<std::string> stored_term_list(Db& db, int64_t key) {
    Query row(db, with_lock(db, "SELECT terms FROM memories WHERE row_key = ?"));
    row.args(key);
    if (!row.step()) return std::nullopt;
    return host::optional_copy(row.str(0));
}

AppTermStats app_term_stats(Db& db, std::string_view app, const std::vector<std::string>& terms) {
    AppTermStats stats;
    {
        Query totals(db, "SELECT documents, length FROM memory_app_stats WHERE app = ?");
        totals.args(app);
        if (totals.step()) {
            stats.documents = static_cast<double>(totals.i64(0));
            stats.length = static_cast<double>(totals.i64(1));
        }
    }
    for (const std::string& term : terms) {
        Query count(db, "SELECT documents FROM memory_term_stats WHERE app = ? AND term = ?");
        count.args(app, stats_term(term));
        stats.document_frequency.push_back(count.step() ? static_cast<double>(count.i64(0)) : 0);
    }
    return stats;
}

}  // namespace mnemo::sqlcore
