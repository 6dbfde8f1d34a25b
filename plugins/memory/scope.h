// scope.h -- one state scope (a session's, an app's or a user's keys) and the
// staging that lets a write check max_state_bytes before changing anything.
#pragma once

#include "util.h"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace mnemo::memory {

// Keys kept ordered so every output lists them by key.
struct Scope {
    std::map<std::string, std::string, std::less<>> entries;
    int64_t bytes = 0;          // sum of key and value bytes
    int64_t expires_at_us = 0;  // app and user scopes only; 0: never
    bool live(int64_t now_us) const { return live_at(expires_at_us, now_us); }
};

// App and user scopes ordered by expires_at, so a sweep finds the expired
// ones without visiting live ones. Every change of a scope's expiry goes
// through set() to keep the order exact.
class ScopeExpiries {
public:
    void set(Scope& scope, int64_t expires_at_us);
    void forget(Scope& scope);
    // The scope that expired first, when its expires_at <= now; else null.
    Scope* first_due(int64_t now_us) const;

private:
    std::set<std::pair<int64_t, Scope*>> order_;
};

// Changes to one scope recorded beside it, so a rejected write leaves the
// scope untouched and the size check costs O(ops), not O(scope).
class StagedScope {
public:
    StagedScope(const Scope& base, bool base_live);
    void apply(std::string_view key, mnemo_str value_json);
    int64_t bytes() const { return bytes_; }
    void commit(Scope& target) const;

private:
    const std::string* current(std::string_view key) const;
    const Scope& base_;
    bool base_live_;
    std::map<std::string, std::optional<std::string>, std::less<>> changes_;
    int64_t bytes_;
};

// The three scopes one write may touch; a missing target rejects its ops.
class StateStage {
public:
    StateStage(Scope* session, Scope* app, Scope* user, int64_t now_us);
    // False when an op names a scope this write cannot reach.
    bool apply(const mnemo_state_op* ops, size_t n_ops);
    bool apply_all_to(int scope, const mnemo_state_op* ops, size_t n_ops);
    // The first scope over max_bytes (0: unlimited), or -1.
    int over_limit(int64_t max_bytes, int64_t* bytes) const;
    // Applies the changes; touched app/user scopes get expires_at = now + ttl.
    void commit(int64_t app_ttl_us, int64_t user_ttl_us, ScopeExpiries& expiries);

private:
    bool apply_one(int scope, const mnemo_state_op& op);
    std::array<Scope*, 3> targets_;
    std::array<std::optional<StagedScope>, 3> staged_;
    int64_t now_us_;
};

const char* scope_name(int scope);

}  // namespace mnemo::memory
