#include "core/finalize_inbox.h"

#include <utility>

namespace mnemo::core {

std::string_view finalize_reason_name(FinalizeReason reason) {
    switch (reason) {
        case FinalizeReason::Expired:
            return "expired";
        case FinalizeReason::Reset:
            return "reset";
        case FinalizeReason::Deleted:
            return "deleted";
    }
    return "deleted";
}

void FinalizeInbox::push(FinalizeItem item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
}

std::vector<FinalizeItem> FinalizeInbox::take() {
    std::lock_guard lock(mutex_);
    return std::exchange(items_, {});
}

}  // namespace mnemo::core
