/*
 * scripting/app_states.h -- one Lua state per app.
 *
 * Each app's scripts run in a ScriptState of their own, made and loaded
 * from the current ScriptSet on the app's first call, so
 * scripts.memory_limit applies per app and nothing one app's scripts leave
 * in their globals reaches another app. Globals persist between the calls
 * of one app, as hooks that count or cache expect. At most kMaxAppStates
 * are kept, the least recently used closed first: an app seen again gets a
 * fresh state, its globals lost, so that a client naming endless apps
 * cannot make the daemon hold endless states. A new script set drops every
 * state. Used by one thread (the loop, or one worker).
 */
#pragma once

#include "scripting/script_set.h"
#include "scripting/script_state.h"

#include <list>
#include <memory>
#include <string>
#include <unordered_map>

namespace mnemo::scripting {

inline constexpr size_t kMaxAppStates = 128;

class AppStates {
public:
    // The set and config states are made with; a new set drops every state.
    void use(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    // The app's state, bounded by `bounds` for the next call; null with *error when the scripts fail to load in it.
    ScriptState* get(const std::string& app, const Bounds& bounds, std::string* error);
    size_t size() const { return lru_.size(); }

private:
    struct Entry {
        std::string app;
        std::unique_ptr<ScriptState> state;
    };
    std::unique_ptr<ScriptState> make(const std::string& app, std::string* error) const;

    std::list<Entry> lru_;  // the most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
    std::shared_ptr<const ScriptSet> scripts_;
    std::shared_ptr<const config::Config> config_;
};

}  // namespace mnemo::scripting
