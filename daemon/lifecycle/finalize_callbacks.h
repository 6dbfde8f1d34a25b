/*
 * lifecycle/finalize_callbacks.h -- who is told that a session is finished.
 *
 * SCRIPTING.md's `finalize(session, reason)` hook, as a list of C++
 * callbacks that the scripting runtime (and tests) add to. Called on the
 * loop thread, once per session that expires, is reset away from or is
 * deleted; a callback returning false (or throwing) is a failed attempt
 * that the finalizer retries up to sweep.finalize_retries times.
 */
#pragma once

#include "core/finalize_inbox.h"
#include "storage/rows.h"

#include <functional>
#include <vector>

namespace mnemo::lifecycle {

using FinalizeCallback = std::function<bool(const storage::SessionRow& session, core::FinalizeReason reason)>;

class FinalizeCallbacks {
public:
    void add(FinalizeCallback callback) { callbacks_.push_back(std::move(callback)); }
    void clear() { callbacks_.clear(); }
    // Calls every callback in order, even after a failure; true when all succeeded (or there are none).
    bool run(const storage::SessionRow& session, core::FinalizeReason reason) const;

private:
    std::vector<FinalizeCallback> callbacks_;
};

}  // namespace mnemo::lifecycle
