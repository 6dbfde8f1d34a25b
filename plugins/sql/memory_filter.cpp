#include "memory_filter.h"

#include "host_services.h"

namespace mnemo::sqlcore {
namespace {

bool metadata_passes(const mnemo_memory_filter& filter, const MemoryRow& row) {
    for (size_t i = 0; i < filter.n_metadata; ++i)
        if (!host::json_member_equals(row.metadata, view(filter.metadata_keys[i]),
                                      view(filter.metadata_values_json[i])))
            return false;
    return true;
}

}  // namespace

bool passes(const mnemo_memory_filter& filter, const MemoryRow& row) {
    if (!row.live(filter.now_us) || row.app != view(filter.app)) return false;
    if (filter.user.ptr && row.user != view(filter.user)) return false;
    if (filter.name_space.ptr && row.name_space != view(filter.name_space)) return false;
    if (filter.session_id.ptr && row.session_id != std::optional<std::string>(text(filter.session_id))) return false;
    if (filter.created_after_us > 0 && row.created_at_us <= filter.created_after_us) return false;
    if (filter.created_before_us > 0 && row.created_at_us >= filter.created_before_us) return false;
    return metadata_passes(filter, row);
}

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
