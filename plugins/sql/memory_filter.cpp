#include "memory_filter.h"

namespace mnemo::sqlcore {

const char* scope_sql(const mnemo_memory_filter& filter) {
    return filter.user.ptr ? kMemoryUserScopeSql : kMemoryAppScopeSql;
}

int bind_scope(Query& query, int index, const mnemo_memory_filter& filter) {
    query.bind(index++, filter.app);
    if (filter.user.ptr) query.bind(index++, filter.user);
    query.bind(index++, filter.now_us);
    return index;
}

void for_each_in_scope(Db& db, const mnemo_memory_filter& filter, const char* extra_sql,
                       const std::function<void(const MemoryRow&)>& fn) {
    Query query(db, std::string("SELECT ") + kMemoryColumns + " FROM memories WHERE " + scope_sql(filter) +
                        " AND (? IS NULL OR name_space = ?) AND (? IS NULL OR session_id = ?)"
                        " AND (? = 0 OR created_at > ?) AND (? = 0 OR created_at < ?)" +
                        extra_sql + " ORDER BY row_key");
    int next = bind_scope(query, 1, filter);
    for (mnemo_str value : {filter.name_space, filter.name_space, filter.session_id, filter.session_id})
        query.bind(next++, value);
    for (int64_t value :
         {filter.created_after_us, filter.created_after_us, filter.created_before_us, filter.created_before_us})
        query.bind(next++, value);
    while (query.step()) fn(memory_row(query));
}

}  // namespace mnemo::sqlcore
