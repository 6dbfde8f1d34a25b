/*
 * core/finalize_inbox.h -- sessions waiting for their finalize hook that
 * storage can no longer remember.
 *
 * A non-persistent backend (memory) forgets a hard-deleted or purged
 * session at once, so no finalize mark survives in storage; the delete
 * operation (on whatever thread it runs) drops the purged row here and
 * lifecycle's finalizer takes it on the loop thread. A persistent backend
 * keeps a tombstone with a finalize mark instead and hands nothing over.
 * Expired, reset-away and soft-deleted sessions never pass through here:
 * storage keeps their finalize marks (finalize_list / finalize_done).
 */
#pragma once

#include "storage/rows.h"

#include <mutex>
#include <string_view>
#include <vector>

namespace mnemo::core {

enum class FinalizeReason {
    Expired = MNEMO_FINALIZE_EXPIRED,
    Reset = MNEMO_FINALIZE_RESET,
    Deleted = MNEMO_FINALIZE_DELETED
};

std::string_view finalize_reason_name(FinalizeReason reason);  // "expired" | "reset" | "deleted"

struct FinalizeItem {
    storage::SessionRow session;
    FinalizeReason reason = FinalizeReason::Deleted;
    int64_t failed_attempts = 0;  // finalize hook failures so far
};

class FinalizeInbox {
public:
    void push(FinalizeItem item);
    std::vector<FinalizeItem> take();  // everything pushed so far, oldest first

private:
    std::mutex mutex_;
    std::vector<FinalizeItem> items_;
};

}  // namespace mnemo::core
