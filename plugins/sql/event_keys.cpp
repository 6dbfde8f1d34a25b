#include "event_keys.h"

#include "columns.h"
#include "dialect.h"

#include <algorithm>
#include <string>

namespace mnemo::sqlcore {
namespace {

std::string select_visible(std::string_view columns, std::string_view events) {
    return std::string("SELECT ") + std::string(columns) + " FROM " + std::string(events) + " WHERE deleted_at = 0 AND ";
}

// keys [from, to) in one statement of key pairs.
void read_pairs(Db& db, const std::vector<EventKey>& keys, size_t from, size_t to, std::string_view columns,
                const std::function<void(const Query&)>& on_row) {
    const size_t places = in_list_places(to - from);
    Query rows(db, select_visible(columns, db.dialect().events_by_key_pairs) + "(sid, seq) " + in_list(places, 2));
    for (size_t i = 0; i < places; ++i) {
        const EventKey& key = keys[std::min(from + i, to - 1)];
        rows.bind(static_cast<int>(2 * i + 1), key.sid).bind(static_cast<int>(2 * i + 2), key.seq);
    }
    while (rows.step()) on_row(rows);
}

// keys [from, to), all of one session, in one statement.
void read_session_seqs(Db& db, const std::vector<EventKey>& keys, size_t from, size_t to, std::string_view columns,
                       const std::function<void(const Query&)>& on_row) {
    const size_t places = in_list_places(to - from);
    Query rows(db, select_visible(columns, "events") + "sid = ? AND seq " + in_list(places));
    rows.bind(1, keys[from].sid);
    for (size_t i = 0; i < places; ++i) rows.bind(static_cast<int>(i + 2), keys[std::min(from + i, to - 1)].seq);
    while (rows.step()) on_row(rows);
}

}  // namespace

void for_each_event_at(Db& db, std::vector<EventKey> keys, std::string_view columns,
                       const std::function<void(const Query&)>& on_row) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (db.dialect().events_by_key_pairs != nullptr) {
        for (size_t from = 0; from < keys.size(); from += kEventKeysPerRead)
            read_pairs(db, keys, from, std::min(keys.size(), from + kEventKeysPerRead), columns, on_row);
        return;
    }
    for (size_t from = 0; from < keys.size();) {
        size_t to = from;
        while (to < keys.size() && to - from < kEventKeysPerRead && keys[to].sid == keys[from].sid) ++to;
        read_session_seqs(db, keys, from, to, columns, on_row);
        from = to;
    }
}

}  // namespace mnemo::sqlcore
