// session_index.h -- sessions ordered for listing: (updated_at desc, id desc),
// kept per app and per (app, user) and updated on every write, so a list page
// costs O(log n + page) instead of a sort of every session.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace mnemo::memory {

struct SessionRec;

struct ListKey {
    int64_t updated_at_us;
    std::string id;
    std::string user;  // sessions of different users may share an id
    const SessionRec* session;
};

// A page cursor names no user: rows "after" it skip every user's row with
// that (updated_at, id).
struct ListCursor {
    int64_t updated_at_us;
    std::string_view id;
};

struct ListOrder {
    using is_transparent = void;
    bool operator()(const ListKey& a, const ListKey& b) const;
    bool operator()(const ListKey& a, const ListCursor& b) const;
    bool operator()(const ListCursor& a, const ListKey& b) const;
};

using SessionIndex = std::set<ListKey, ListOrder>;

}  // namespace mnemo::memory
