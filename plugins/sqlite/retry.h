// retry.h -- what the backend does when SQLite says "busy": retry with
// jittered exponential backoff (on top of SQLite's own busy_timeout wait),
// then give up with MNEMO_E_UNAVAILABLE so no caller waits forever.
#pragma once

#include <functional>
#include <string>

namespace mnemo::sqlite {

struct RetryPolicy {
    int attempts = 4;           // tries in all, each waiting up to busy_timeout inside SQLite
    int first_delay_us = 2000;  // backoff before the second try; doubles after each
    int max_delay_us = 200000;
};

// Runs step until it does not throw StoreError(MNEMO_E_BUSY). After the last
// busy attempt throws StoreError(MNEMO_E_UNAVAILABLE) naming `what`.
void retry_while_busy(const RetryPolicy& policy, const std::string& what, const std::function<void()>& step);

}  // namespace mnemo::sqlite
