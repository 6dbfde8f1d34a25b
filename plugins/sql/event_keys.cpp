#include "event_keys.h"

#include "dialect.h"

#include <algorithm>
#include <string>

namespace mnemo::sqlcore {
namespace {

std::string select_visible(std::string_view columns, std::string_view events) {
    return std::string("SELECT ") + std::string(columns) + " FROM " + std::string(events) + " WHERE deleted_at = 0 AND ";
}

}  // namespace

void for_each_event_at(Db& db, std::vector<EventKey> keys, std::string_view columns,
                       const std::function<void(const Query&)>& on_row) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (const char* events = db.dialect().events_by_key_pairs) {
        std::vector<int64_t> pairs;
        pairs.reserve(2 * keys.size());
        for (const EventKey& key : keys) pairs.insert(pairs.end(), {key.sid, key.seq});
        for_each_row_in_list(db, select_visible(columns, events) + "(sid, seq) ", pairs, 2, {}, "", on_row);
        return;
    }
    const std::string per_session = select_visible(columns, "events") + "sid = ? AND seq ";
    for (size_t from = 0; from < keys.size();) {
        std::vector<int64_t> seqs;
        size_t to = from;
        for (; to < keys.size() && keys[to].sid == keys[from].sid; ++to) seqs.push_back(keys[to].seq);
        for_each_row_in_list(db, per_session, seqs, 1, {keys[from].sid}, "", on_row);
        from = to;
    }
}

}  // namespace mnemo::sqlcore
