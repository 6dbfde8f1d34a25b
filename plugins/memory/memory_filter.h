// memory_filter.h -- the exact filters of recall (mnemo_memory_filter) and
// the scope they range over: one user's memories, or the app's when no user
// is named. Filters never let a memory of another app or user through.
#pragma once

#include "memories.h"

namespace mnemo::memory {

// Whether a stored row passes every filter (live included): memory_values.h.
using host::passes;

// Calls fn(row) for every live row of the filter's scope (app, and user when
// given), before the other filters: BM25 counts its documents over it.
template <typename Fn>
void for_each_in_scope(MemoryStore& memories, const mnemo_memory_filter& filter, Fn&& fn) {
    AppMemories* app = memories.find_app(view(filter.app));
    if (!app) return;
    auto visit_user = [&](const UserMemories& user) {
        for (const auto& [id, row] : user.by_id)
            if (row->live(filter.now_us)) fn(*row);
    };
    if (!filter.user.ptr) {
        for (const auto& [name, user] : app->users) visit_user(user);
        return;
    }
    auto user = app->users.find(view(filter.user));
    if (user != app->users.end()) visit_user(user->second);
}

}  // namespace mnemo::memory
