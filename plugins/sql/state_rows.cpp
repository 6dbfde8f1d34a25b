#include "state_rows.h"

#include "dialect.h"

namespace mnemo::sqlcore {
namespace {

// form with its % replaced by name.
std::string filled(const char* form, std::string_view name) {
    std::string text(form);
    if (size_t at = text.find('%'); at != std::string::npos) text.replace(at, 1, name);
    return text;
}

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

std::optional<ScopeRow> load_scope_row(Db& db, int scope, const StateTarget& target) {
    Query row(db, "SELECT expires_at, bytes FROM state_scopes WHERE scope = ? AND app = ? AND user = ?");
    row.args(scope, target.app, scope_user(scope, target));
    if (!row.step()) return std::nullopt;
    return ScopeRow{row.i64(0), row.i64(1)};
}

void store_scope_row(Db& db, int scope, const StateTarget& target, int64_t expires_at_us, int64_t bytes) {
    if (bytes == 0) {
        Query(db, "DELETE FROM state_scopes WHERE scope = ? AND app = ? AND user = ?")
            .args(scope, target.app, scope_user(scope, target))
            .run();
        return;
    }
    Query(db, db.dialect().state.upsert_scope_row)
        .args(scope, target.app, scope_user(scope, target), expires_at_us, bytes)
        .run();
}

bool scope_visible(Db& db, int scope, const StateTarget& target, int64_t now_us) {
    if (scope == MNEMO_SCOPE_SESSION) return target.session != nullptr;
    if (scope == MNEMO_SCOPE_USER && !target.user.ptr) return false;
    std::optional<ScopeRow> row = load_scope_row(db, scope, target);
    return row && live_at(row->expires_at_us, now_us);
}

}  // namespace

StateSql state_statements(const char* key_column, UpsertForm upsert) {
    const std::string key = key_column;
    auto set = [&](const char* column) { return column + std::string(" = ") + filled(upsert.new_value, column); };
    // Per scope: the table, its owner's columns, their condition, their parameters.
    const std::array<std::array<const char*, 4>, 3> scopes{
        {{"session_state", "sid", "sid = ?", "?"},
         {"app_state", "app", "app = ?", "?"},
         {"user_state", "app, user", "app = ? AND user = ?", "?, ?"}}};
    StateSql sql;
    for (size_t scope = 0; scope < scopes.size(); ++scope) {
        const auto [table, owner, owner_is, marks] = scopes[scope];
        const std::string from = std::string(" FROM ") + table + " WHERE " + owner_is,
                          keyed = from + " AND " + key + " = ?";
        sql.scopes[scope] =
            ScopeSql{"SELECT value" + keyed,
                     std::string("INSERT INTO ") + table + " (" + owner + ", " + key + ", value) VALUES (" + marks +
                         ", ?, ?) " + filled(upsert.on, owner + (", " + key)) + set("value"),
                     "DELETE" + keyed, "DELETE" + from, "SELECT " + key + ", value" + from + " ORDER BY " + key};
    }
    sql.upsert_scope_row = "INSERT INTO state_scopes (scope, app, user, expires_at, bytes) VALUES (?, ?, ?, ?, ?) " +
                           filled(upsert.on, "scope, app, user") + set("expires_at") + ", " + set("bytes");
    return sql;
}

StateWriter::StateWriter(Db& db, StateTarget target, int64_t now_us) : db_(db), target_(target), now_us_(now_us) {}

int StateWriter::bind_owner(Query& query, int scope) const {
    return bind_scope_owner(query, scope, target_);
}

std::string StateWriter::scope_label(int scope) const {
    if (scope == MNEMO_SCOPE_APP) return "app state of " + text(target_.app);
    if (scope == MNEMO_SCOPE_USER) return "user state of " + text(target_.user) + " in app " + text(target_.app);
    return "session state";
}

// Where rows are locked, a placeholder row (no bytes, no expiry) gives a
// scope without a row something to lock; finish() removes it again when the
// scope stays empty (Dialect::lock_scope_row).
void StateWriter::lock_scope_row(int scope) {
    const char* lock = db_.dialect().lock_scope_row;
    if (!lock) return;
    Query(db_, lock).args(scope, target_.app, scope_user(scope, target_)).run();
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
    std::optional<ScopeRow> row = load_scope_row(db_, scope, target_);
    bytes_[scope] = row ? row->bytes : 0;
    if (row && !live_at(row->expires_at_us, now_us_)) {
        Query clear(db_, db_.dialect().state.scopes[scope].clear);
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
    const ScopeSql& sql = db_.dialect().state.scopes[scope];
    {
        Query old(db_, sql.select_value);
        old.bind(bind_owner(old, scope), key);
        if (old.step()) {
            bytes_[scope] -= static_cast<int64_t>(key.len + old.str(0).len);
        } else if (!value_json.ptr) {
            return false;  // deleting an absent key changes nothing
        }
    }
    Query change(db_, value_json.ptr ? sql.upsert : sql.remove);
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
        store_scope_row(db_, MNEMO_SCOPE_APP, target_, expiry_after(now_us_, app_ttl_us), bytes_[MNEMO_SCOPE_APP]);
    if (touched_[MNEMO_SCOPE_USER])
        store_scope_row(db_, MNEMO_SCOPE_USER, target_, expiry_after(now_us_, user_ttl_us), bytes_[MNEMO_SCOPE_USER]);
}

void emit_scope(Db& db, int scope, const StateTarget& target, int64_t now_us, Output& out) {
    if (!scope_visible(db, scope, target, now_us)) return;
    Query rows(db, db.dialect().state.scopes[scope].list);
    bind_scope_owner(rows, scope, target);
    while (rows.step()) out.state(scope, rows.str(0), rows.str(1));
}

void emit_merged_state(Db& db, const StateTarget& target, int64_t now_us, Output& out) {
    for (int scope = MNEMO_SCOPE_SESSION; scope <= MNEMO_SCOPE_USER; ++scope)
        emit_scope(db, scope, target, now_us, out);
}

int64_t drop_scope(Db& db, int scope, mnemo_str app, mnemo_str user) {
    const bool of_user = scope == MNEMO_SCOPE_USER;
    Query clear(db, db.dialect().state.scopes[scope].clear);
    clear.bind(1, app);
    if (of_user) clear.bind(2, user);
    const int64_t keys = clear.run();
    Query(db, "DELETE FROM state_scopes WHERE scope = ? AND app = ? AND user = ?")
        .args(scope, app, of_user ? user : str(""))
        .run();
    return keys;
}

int64_t purge_user_state(Db& db, mnemo_str app, mnemo_str user) {
    return drop_scope(db, MNEMO_SCOPE_USER, app, user);
}

}  // namespace mnemo::sqlcore
