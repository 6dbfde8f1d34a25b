#include "lifecycle/finalize_callbacks.h"

#include "observability/log.h"

#include <exception>

namespace mnemo::lifecycle {

bool FinalizeCallbacks::run(const storage::SessionRow& session, core::FinalizeReason reason) const {
    bool all_ok = true;
    for (const auto& callback : callbacks_) {
        try {
            all_ok = callback(session, reason) && all_ok;
        } catch (const std::exception& e) {
            log::warn("finalize hook for session {}/{}/{} threw: {}", session.app, session.user, session.id, e.what());
            all_ok = false;
        }
    }
    return all_ok;
}

}  // namespace mnemo::lifecycle
