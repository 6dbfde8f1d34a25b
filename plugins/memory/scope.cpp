#include "scope.h"

namespace mnemo::memory {

void ScopeExpiries::set(Scope& scope, int64_t expires_at_us) {
    forget(scope);
    scope.expires_at_us = expires_at_us;
    if (expires_at_us > 0) order_.emplace(expires_at_us, &scope);
}

void ScopeExpiries::forget(Scope& scope) {
    if (scope.expires_at_us > 0) order_.erase({scope.expires_at_us, &scope});
}

Scope* ScopeExpiries::first_due(int64_t now_us) const {
    return !order_.empty() && order_.begin()->first <= now_us ? order_.begin()->second : nullptr;
}

StagedScope::StagedScope(const Scope& base, bool base_live)
    : base_(base), base_live_(base_live), bytes_(base_live ? base.bytes : 0) {}

const std::string* StagedScope::current(std::string_view key) const {
    auto changed = changes_.find(key);
    if (changed != changes_.end()) return changed->second ? &*changed->second : nullptr;
    if (!base_live_) return nullptr;
    auto stored = base_.entries.find(key);
    return stored == base_.entries.end() ? nullptr : &stored->second;
}

void StagedScope::apply(std::string_view key, mnemo_str value_json) {
    if (const std::string* old = current(key)) bytes_ -= static_cast<int64_t>(key.size() + old->size());
    if (value_json.ptr) bytes_ += static_cast<int64_t>(key.size() + value_json.len);
    changes_.insert_or_assign(std::string(key), copy_opt(value_json));
}

void StagedScope::commit(Scope& target) const {
    // An expired scope is gone as a whole: its old keys must not come back.
    if (!base_live_) target.entries.clear();
    for (const auto& [key, value] : changes_) {
        if (value)
            target.entries.insert_or_assign(key, *value);
        else
            target.entries.erase(key);
    }
    target.bytes = bytes_;
}

StateStage::StateStage(Scope* session, Scope* app, Scope* user, int64_t now_us)
    : targets_{session, app, user}, now_us_(now_us) {}

bool StateStage::apply_one(int scope, const mnemo_state_op& op) {
    if (scope < MNEMO_SCOPE_SESSION || scope > MNEMO_SCOPE_USER || targets_[scope] == nullptr) return false;
    auto& staged = staged_[scope];
    if (!staged) staged.emplace(*targets_[scope], targets_[scope]->live(now_us_));
    staged->apply(view(op.key), op.value_json);
    return true;
}

bool StateStage::apply(const mnemo_state_op* ops, size_t n_ops) {
    for (size_t i = 0; i < n_ops; ++i)
        if (!apply_one(ops[i].scope, ops[i])) return false;
    return true;
}

bool StateStage::apply_all_to(int scope, const mnemo_state_op* ops, size_t n_ops) {
    for (size_t i = 0; i < n_ops; ++i)
        if (!apply_one(scope, ops[i])) return false;
    return true;
}

int StateStage::over_limit(int64_t max_bytes, int64_t* bytes) const {
    if (max_bytes <= 0) return -1;
    for (int scope = MNEMO_SCOPE_SESSION; scope <= MNEMO_SCOPE_USER; ++scope) {
        if (staged_[scope] && staged_[scope]->bytes() > max_bytes) {
            *bytes = staged_[scope]->bytes();
            return scope;
        }
    }
    return -1;
}

void StateStage::commit(int64_t app_ttl_us, int64_t user_ttl_us, ScopeExpiries& expiries) {
    const int64_t ttl[3] = {0, app_ttl_us, user_ttl_us};
    for (int scope = MNEMO_SCOPE_SESSION; scope <= MNEMO_SCOPE_USER; ++scope) {
        if (!staged_[scope]) continue;
        staged_[scope]->commit(*targets_[scope]);
        if (scope != MNEMO_SCOPE_SESSION) expiries.set(*targets_[scope], expiry_after(now_us_, ttl[scope]));
    }
}

const char* scope_name(int scope) {
    switch (scope) {
        case MNEMO_SCOPE_SESSION:
            return "session";
        case MNEMO_SCOPE_APP:
            return "app";
        case MNEMO_SCOPE_USER:
            return "user";
        default:
            return "unknown";
    }
}

}  // namespace mnemo::memory
