/*
 * lifecycle/finalizer.h -- calling the finalize hook once per finished session.
 *
 * Owns the finalize rule of the lifecycle issue: each session that expires,
 * is reset away from or is deleted gets the FinalizeCallbacks once, on the
 * loop thread; a failed call is retried on later passes until
 * sweep.finalize_retries failures, then the session is marked finalized
 * anyway and the failure logged. Marks live in storage (finalize_list /
 * finalize_done_batch, or finalize_done per session with a plugin that
 * lacks the batch), so a restart never finalizes a session twice; a
 * persistent backend keeps the marks of hard-deleted and purged sessions
 * too (tombstone rows), while a non-persistent one hands those sessions over
 * at once and they wait in the in-memory FinalizeInbox. Every finalized session logs one debug line
 * "finalize session <app>/<user>/<id> reason=<reason>" (a sweep of many
 * thousands would flood an info log; the sweep's own line sums them up) and
 * counts in mnemo_swept_total{kind="finalized"}.
 */
#pragma once

#include "api/executor.h"
#include "core/clock.h"
#include "core/finalize_inbox.h"
#include "lifecycle/finalize_callbacks.h"
#include "observability/metrics.h"
#include "storage/backend.h"

#include <functional>

namespace mnemo::lifecycle {

class Finalizer {
public:
    Finalizer(const storage::Backend& backend, api::Executor& executor, const core::Clock& clock,
              metrics::Registry& metrics, const FinalizeCallbacks& callbacks, core::FinalizeInbox& inbox)
        : backend_(backend),
          executor_(executor),
          clock_(clock),
          metrics_(metrics),
          callbacks_(callbacks),
          inbox_(inbox) {}

    // Hard-deleted sessions: finalized now; failures go back to the inbox for the next pass.
    void finalize_inbox(uint32_t retries);
    // One batch of stored marks (at most limit); done on the loop thread with more (another batch may
    // wait) and loop_us, the longest loop turn the batch took (hooks run on the loop), so the caller
    // can size the next batch to sweep.budget.
    using BatchDone = std::function<void(bool more, int64_t loop_us)>;
    void finalize_batch(int64_t limit, uint32_t retries, BatchDone done);

private:
    bool call_hooks(const core::FinalizeItem& item) const;
    void report(const core::FinalizeItem& item, bool hook_ok, int64_t failures) const;

    const storage::Backend& backend_;
    api::Executor& executor_;
    const core::Clock& clock_;
    metrics::Registry& metrics_;
    const FinalizeCallbacks& callbacks_;
    core::FinalizeInbox& inbox_;
};

}  // namespace mnemo::lifecycle
