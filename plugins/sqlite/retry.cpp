#include "retry.h"

#include "store_error.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace mnemo::sqlite {

using sqlcore::StoreError;
namespace {

// Full jitter: a random wait in [delay/2, delay] keeps retrying writers from
// waking in lockstep.
void sleep_jittered(int delay_us) {
    thread_local std::minstd_rand rng{std::random_device{}()};
    std::uniform_int_distribution<int> pick(delay_us / 2, delay_us);
    std::this_thread::sleep_for(std::chrono::microseconds(pick(rng)));
}

}  // namespace

void retry_while_busy(const RetryPolicy& policy, const std::string& what, const std::function<void()>& step) {
    int delay_us = policy.first_delay_us;
    for (int attempt = 1;; ++attempt) {
        try {
            step();
            return;
        } catch (const StoreError& e) {
            if (e.code() != MNEMO_E_BUSY) throw;
            if (attempt >= policy.attempts)
                throw StoreError(MNEMO_E_UNAVAILABLE, what + ": database stayed locked after " +
                                                          std::to_string(attempt) + " attempts (" + e.what() +
                                                          "); retry later");
        }
        sleep_jittered(delay_us);
        delay_us = std::min(delay_us * 2, policy.max_delay_us);
    }
}

}  // namespace mnemo::sqlite
