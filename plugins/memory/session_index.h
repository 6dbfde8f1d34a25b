// session_index.h -- sessions ordered for listing: (updated_at desc, user
// desc, id desc), kept per app and per (app, user) and updated on every
// write, so a list page costs O(log n + page) instead of a sort of every
// session. Within one user the order is (updated_at desc, id desc).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace mnemo::memory {

struct SessionRec;

// user and id view the session's own strings, which never change while it
// is indexed: moving a session to the front copies no string.
struct ListKey {
    int64_t updated_at_us;
    std::string_view user;  // sessions of different users may share an id
    std::string_view id;
    const SessionRec* session;
};

// A page cursor: the last row of the previous page. In one user's index
// the user is the index's own.
struct ListCursor {
    int64_t updated_at_us;
    std::string_view user;
    std::string_view id;
};

// Every row of one updated_at: where a cursor whose user is unknown starts
// (its rows of that time are after it by id alone, not a range of the set).
struct ListTime {
    int64_t updated_at_us;
};

struct ListOrder {
    using is_transparent = void;
    bool operator()(const ListKey& a, const ListKey& b) const;
    bool operator()(const ListKey& a, const ListCursor& b) const;
    bool operator()(const ListCursor& a, const ListKey& b) const;
    bool operator()(const ListKey& a, ListTime b) const { return a.updated_at_us > b.updated_at_us; }
    bool operator()(ListTime a, const ListKey& b) const { return a.updated_at_us > b.updated_at_us; }
};

using SessionIndex = std::set<ListKey, ListOrder>;

}  // namespace mnemo::memory
