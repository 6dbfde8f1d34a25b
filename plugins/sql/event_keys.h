// event_keys.h -- reading events by their keys (sid, seq) in few
// statements: a search's hits with their context, and the texts an exact
// token's candidates are checked against. A statement a key costs the
// server backends a round trip each, hundreds in a search.
#pragma once

#include "db.h"

#include <compare>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace mnemo::sqlcore {

struct EventKey {
    int64_t sid = 0;
    int64_t seq = 0;
    auto operator<=>(const EventKey&) const = default;
};

// Calls on_row for the current row of each visible event among keys, which
// selects `columns` (the caller's list) from events. The keys are read
// kTuplesPerRead to a statement (db.h): as (sid, seq) IN ((?, ?), ...) where
// the dialect reads such a list through the primary key
// (Dialect::events_by_key_pairs), else a statement per session with
// seq IN (...). Rows come in no particular order; a key listed twice is read
// once.
void for_each_event_at(Db& db, std::vector<EventKey> keys, std::string_view columns,
                       const std::function<void(const Query&)>& on_row);

}  // namespace mnemo::sqlcore
