#include "state_rows.h"

namespace mnemo::mysql {
namespace {

// Per scope: the owner parameters come first (sid; app; app and user), then
// the key, then the value.
struct ScopeSql {
    const char* select_value;
    const char* upsert;
    const char* remove;
    const char* clear;
    const char* list;
};

constexpr std::array<ScopeSql, 3> kScopeSql{{
    {"SELECT value FROM session_state WHERE sid = ? AND skey = ?",
     "INSERT INTO session_state (sid, skey, value) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
     "DELETE FROM session_state WHERE sid = ? AND skey = ?", "DELETE FROM session_state WHERE sid = ?",
     "SELECT skey, value FROM session_state WHERE sid = ? ORDER BY skey"},
    {"SELECT value FROM app_state WHERE app = ? AND skey = ?",
     "INSERT INTO app_state (app, skey, value) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
     "DELETE FROM app_state WHERE app = ? AND skey = ?", "DELETE FROM app_state WHERE app = ?",
     "SELECT skey, value FROM app_state WHERE app = ? ORDER BY skey"},
    {"SELECT value FROM user_state WHERE app = ? AND user = ? AND skey = ?",
     "INSERT INTO user_state (app, user, skey, value) VALUES (?, ?, ?, ?) "
     "ON DUPLICATE KEY UPDATE value = VALUES(value)",
     "DELETE FROM user_state WHERE app = ? AND user = ? AND skey = ?",
     "DELETE FROM user_state WHERE app = ? AND user = ?",
     "SELECT skey, value FROM user_state WHERE app = ? AND user = ? ORDER BY skey"},
}};

// The user column of state_scopes is '' for an app scope.
mnemo_str scope_user(int scope, const StateTarget& target) {
    return scope == MNEMO_SCOPE_USER ? target.user : str("");
}

// Binds the owner of the scope's rows; returns the next parameter index.
int bind_scope_owner(Query& query, int scope, const StateTarget& target) {
    if (scope == MNEMO_SCOPE_SESSION) {
        query.bind(1, target.session->sid);
        return 2;
    }
    query.bind(1, target.app);
    if (scope != MNEMO_SCOPE_USER) return 2;
    query.bind(2, target.user);
    return 3;
}

struct ScopeRow {
    int64_t expires_at_us = 0;
    int64_t bytes = 0;
};

std::optional<ScopeRow> load_scope_row(Conn& conn, int scope, const StateTarget& target) {
    Query row(conn, "SELECT expires_at, bytes FROM state_scopes WHERE scope = ? AND app = ? AND user = ?");
    row.args(scope, target.app, scope_user(scope, target));
    if (!row.step()) return std::nullopt;
    return ScopeRow{row.i64(0), row.i64(1)};
}

void store_scope_row(Conn& conn, int scope, const StateTarget& target, int64_t expires_at_us, int64_t bytes) {
    if (bytes == 0) {
        Query(conn, "DELETE FROM state_scopes WHERE scope = ? AND app = ? AND user = ?")
            .args(scope, target.app, scope_user(scope, target))
            .run();
        return;
    }
    Query(conn,
          "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, ?, ?) "
          "ON DUPLICATE KEY UPDATE expires_at = VALUES(expires_at), bytes = VALUES(bytes)")
        .args(scope, target.app, scope_user(scope, target), expires_at_us, bytes)
        .run();
}

bool scope_visible(Conn& conn, int scope, const StateTarget& target, int64_t now_us) {
    if (scope == MNEMO_SCOPE_SESSION) return target.session != nullptr;
    if (scope == MNEMO_SCOPE_USER && !target.user.ptr) return false;
    std::optional<ScopeRow> row = load_scope_row(conn, scope, target);
    return row && live_at(row->expires_at_us, now_us);
}

}  // namespace

StateWriter::StateWriter(Conn& conn, StateTarget target, int64_t now_us)
    : conn_(conn), target_(target), now_us_(now_us) {}

int StateWriter::bind_owner(Query& query, int scope) const {
    return bind_scope_owner(query, scope, target_);
}

std::string StateWriter::scope_label(int scope) const {
    if (scope == MNEMO_SCOPE_APP) return "app state of " + text(target_.app);
    if (scope == MNEMO_SCOPE_USER) return "user state of " + text(target_.user) + " in app " + text(target_.app);
    return "session state";
}

// A placeholder row (no bytes, no expiry) gives a scope without a row
// something to lock; finish() removes it again when the scope stays empty.
// ON DUPLICATE KEY takes the existing row's exclusive lock.
void StateWriter::lock_scope_row(int scope) {
    Query(conn_,
          "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, 0, 0) "
          "ON DUPLICATE KEY UPDATE bytes = bytes")
        .args(scope, target_.app, scope_user(scope, target_))
        .run();
}

// The first op on a scope loads its size; an expired app/user scope is gone
// as a whole, so its old keys are removed before the write builds on it.
void StateWriter::touch(int scope) {
    if (touched_[scope]) return;
    touched_[scope] = true;
    if (scope == MNEMO_SCOPE_SESSION) {
        bytes_[scope] = target_.session->state_bytes;
        return;
    }
    lock_scope_row(scope);
    std::optional<ScopeRow> row = load_scope_row(conn_, scope, target_);
    bytes_[scope] = row ? row->bytes : 0;
    if (row && !live_at(row->expires_at_us, now_us_)) {
        Query clear(conn_, kScopeSql[scope].clear);
        bind_owner(clear, scope);
        clear.run();
        bytes_[scope] = 0;
    }
}

bool StateWriter::apply_one(int scope, mnemo_str key, mnemo_str value_json) {
    bool reachable = (scope == MNEMO_SCOPE_SESSION && target_.session) || scope == MNEMO_SCOPE_APP ||
                     (scope == MNEMO_SCOPE_USER && target_.user.ptr);
    if (!reachable)
        throw StoreError(MNEMO_E_INVALID, "a state change of scope " + std::to_string(scope) + " (key '" + text(key) +
                                              "') cannot be applied by this write");
    touch(scope);
    const ScopeSql& sql = kScopeSql[scope];
    {
        Query old(conn_, sql.select_value);
        old.bind(bind_owner(old, scope), key);
        if (old.step()) {
            bytes_[scope] -= static_cast<int64_t>(key.len + old.str(0).len);
        } else if (!value_json.ptr) {
            return false;  // deleting an absent key changes nothing
        }
    }
    Query change(conn_, value_json.ptr ? sql.upsert : sql.remove);
    int next = bind_owner(change, scope);
    change.bind(next, key);
    if (value_json.ptr) {
        change.bind(next + 1, value_json);
        bytes_[scope] += static_cast<int64_t>(key.len + value_json.len);
    }
    change.run();
    return true;
}

// Scopes are locked in one fixed order whatever order the ops name them in,
// so two writers touching the same app and user scopes cannot deadlock.
void StateWriter::apply(const mnemo_state_op* ops, size_t n_ops) {
    for (int scope = MNEMO_SCOPE_APP; scope <= MNEMO_SCOPE_USER; ++scope) {
        for (size_t i = 0; i < n_ops; ++i) {
            bool reachable = scope == MNEMO_SCOPE_APP || target_.user.ptr;
            if (ops[i].scope == scope && reachable) {
                touch(scope);
                break;
            }
        }
    }
    for (size_t i = 0; i < n_ops; ++i) apply_one(ops[i].scope, ops[i].key, ops[i].value_json);
}

void StateWriter::finish(int64_t max_bytes, int64_t app_ttl_us, int64_t user_ttl_us) {
    for (int scope = MNEMO_SCOPE_SESSION; scope <= MNEMO_SCOPE_USER; ++scope) {
        if (!touched_[scope]) continue;
        if (max_bytes > 0 && bytes_[scope] > max_bytes)
            throw StoreError(MNEMO_E_TOO_LARGE, scope_label(scope) + " would hold " + std::to_string(bytes_[scope]) +
                                                    " bytes, over limits.max_state_bytes (" +
                                                    std::to_string(max_bytes) + ")");
    }
    if (touched_[MNEMO_SCOPE_SESSION]) target_.session->state_bytes = bytes_[MNEMO_SCOPE_SESSION];
    if (touched_[MNEMO_SCOPE_APP])
        store_scope_row(conn_, MNEMO_SCOPE_APP, target_, expiry_after(now_us_, app_ttl_us), bytes_[MNEMO_SCOPE_APP]);
    if (touched_[MNEMO_SCOPE_USER])
        store_scope_row(conn_, MNEMO_SCOPE_USER, target_, expiry_after(now_us_, user_ttl_us), bytes_[MNEMO_SCOPE_USER]);
}

void emit_scope(Conn& conn, int scope, const StateTarget& target, int64_t now_us, Output& out) {
    if (!scope_visible(conn, scope, target, now_us)) return;
    Query rows(conn, kScopeSql[scope].list);
    bind_scope_owner(rows, scope, target);
    while (rows.step()) out.state(scope, rows.str(0), rows.str(1));
}

void emit_merged_state(Conn& conn, const StateTarget& target, int64_t now_us, Output& out) {
    for (int scope = MNEMO_SCOPE_SESSION; scope <= MNEMO_SCOPE_USER; ++scope)
        emit_scope(conn, scope, target, now_us, out);
}

int64_t drop_scope(Conn& conn, int scope, mnemo_str app, mnemo_str user) {
    const bool of_user = scope == MNEMO_SCOPE_USER;
    Query clear(conn, kScopeSql[scope].clear);
    clear.bind(1, app);
    if (of_user) clear.bind(2, user);
    const int64_t keys = clear.run();
    Query(conn, "DELETE FROM state_scopes WHERE scope = ? AND app = ? AND user = ?")
        .args(scope, app, of_user ? user : str(""))
        .run();
    return keys;
}

int64_t purge_user_state(Conn& conn, mnemo_str app, mnemo_str user) {
    return drop_scope(conn, MNEMO_SCOPE_USER, app, user);
}

}  // namespace mnemo::mysql
