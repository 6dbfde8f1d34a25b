// state_rows.h -- the three state scopes in SQL: session keys (by sid), app
// keys and user keys, each scope's size kept beside it (sessions.state_bytes,
// state_scopes.bytes) so max_state_bytes costs O(ops), and app/user scope
// TTLs that drop a scope as a whole once they pass. Where the engine locks
// rows (Dialect::lock_scope_row), a write locks the state_scopes row of each
// app/user scope it touches (creating a placeholder row when there is none),
// always in the order session, app, user, so concurrent writers of one scope
// never lose each other's size update.
#pragma once

#include "db.h"
#include "rules.h"
#include "store_error.h"
#include "output.h"
#include "session_rows.h"

#include <array>

namespace mnemo::sqlcore {

// Which scope rows a write reaches: the session (when meta is set), the app,
// and the user (when user.ptr is set).
struct StateTarget {
    SessionMeta* session = nullptr;
    mnemo_str app{};
    mnemo_str user{};
};

// Applies the state ops of one write in order, then checks sizes and stores
// the scopes' sizes and TTLs. Everything it does is undone by the caller's
// transaction when it throws.
class StateWriter {
public:
    StateWriter(Db& db, StateTarget target, int64_t now_us);
    // StoreError(MNEMO_E_INVALID) for an op whose scope this write cannot reach.
    void apply(const mnemo_state_op* ops, size_t n_ops);
    // Returns whether the key held a value before.
    bool apply_one(int scope, mnemo_str key, mnemo_str value_json);
    // StoreError(MNEMO_E_TOO_LARGE) for a touched scope over max_bytes (0: no
    // limit); touched app/user scopes get expires_at = now + their ttl.
    void finish(int64_t max_bytes, int64_t app_ttl_us, int64_t user_ttl_us);
    bool touched(int scope) const { return touched_[scope]; }

private:
    void touch(int scope);
    void lock_scope_row(int scope);
    int bind_owner(Query& query, int scope) const;
    std::string scope_label(int scope) const;

    Db& db_;
    StateTarget target_;
    int64_t now_us_;
    std::array<bool, 3> touched_{};
    std::array<int64_t, 3> bytes_{};
};

// Emits one scope's entries ordered by key; an expired app/user scope has none.
void emit_scope(Db& db, int scope, const StateTarget& target, int64_t now_us, Output& out);
// Emits the session's, the app's and the user's entries, in that order.
void emit_merged_state(Db& db, const StateTarget& target, int64_t now_us, Output& out);
// Removes an app or user scope as a whole (user ignored for an app scope);
// returns how many keys it held.
int64_t drop_scope(Db& db, int scope, mnemo_str app, mnemo_str user);
// Removes the user scope of (app, user); returns how many keys it held.
int64_t purge_user_state(Db& db, mnemo_str app, mnemo_str user);

}  // namespace mnemo::sqlcore
