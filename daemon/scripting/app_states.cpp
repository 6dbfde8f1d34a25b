#include "scripting/app_states.h"

namespace mnemo::scripting {

void AppStates::use(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    if (scripts != scripts_) {
        lru_.clear();
        index_.clear();
    }
    scripts_ = std::move(scripts);
    config_ = std::move(config);
}

std::unique_ptr<ScriptState> AppStates::make(const std::string& app, std::string* error) const {
    auto state = std::make_unique<ScriptState>(bounds_of(config_->scripts), config_);
    std::optional<std::string> failed = state->open_error();
    if (!failed && scripts_) failed = load_scripts(*state, *scripts_);
    if (!failed) return state;
    *error = "the scripts could not be loaded for app " + app + ": " + *failed;
    return nullptr;
}

ScriptState* AppStates::get(const std::string& app, const Bounds& bounds, std::string* error) {
    auto found = index_.find(app);
    if (found != index_.end()) {
        lru_.splice(lru_.begin(), lru_, found->second);
    } else {
        auto state = make(app, error);
        if (!state) return nullptr;
        if (lru_.size() >= kMaxAppStates) {
            index_.erase(lru_.back().app);
            lru_.pop_back();
        }
        lru_.push_front(Entry{app, std::move(state)});
        index_[app] = lru_.begin();
    }
    ScriptState& state = *lru_.front().state;
    if (state.config() != config_) state.set_config(config_);
    state.set_bounds(bounds);
    return &state;
}

}  // namespace mnemo::scripting
