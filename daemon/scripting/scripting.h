/*
 * scripting/scripting.h -- the Lua runtime of mnemod (SCRIPTING.md).
 *
 * Owns the scripts (hooks/NAME.lua in name order, then summarize.lua), the
 * loop thread's sandboxed Lua states they run in (one per app: AppStates;
 * and one that loads them first to check them and to know which hooks are
 * registered), their reload on SIGHUP
 * (a script that fails to load leaves the old ones running), and every hook
 * call point the rest of the daemon reaches through this facade: append and
 * get (the API, on the loop), finalize (lifecycle's sweep), reset (lane
 * moves reported by core from any thread, run on the loop), and
 * should_summarize after each append. It also owns summaries: the trigger,
 * the bounded queue and the worker threads (each with its own Lua state),
 * and the summarizers (Lua `summarize` or summary.command); and memory
 * extraction (Extractions: memory.capture extract, the Lua `extract` hook
 * or memory.extract_command, on workers of its own). With no hook of a kind
 * registered, that call point does not touch Lua at all.
 */
#pragma once

#include "core/lanes.h"
#include "core/service.h"
#include "observability/metrics.h"
#include "scripting/app_states.h"
#include "scripting/extractions.h"
#include "scripting/script_set.h"
#include "scripting/script_state.h"
#include "scripting/summaries.h"
#include "scripting/summary_trigger.h"

#include <uv.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::scripting {

class Scripting : public core::LaneMoveSink {
public:
    Scripting(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock, metrics::Registry& metrics,
              std::shared_ptr<const config::Config> config);
    ~Scripting() override;

    // Where extracted memories go beside storage (null: no embedder to wake); before start().
    void set_memory(const memory::MemoryLinks* links) { extractions_.set_memory(links); }
    // Reads and loads scripts.dir, starts the summary and extraction workers. The error names "file:line".
    std::optional<std::string> start();
    // SIGHUP: the (possibly new) config, then the scripts read again; on a load error the old
    // scripts stay and the error is returned.
    std::optional<std::string> reload(std::shared_ptr<const config::Config> config);
    // Joins the summary workers and closes the loop handles; before the loop is closed.
    void shutdown();

    bool has(Hook hook) const { return state_ && state_->has(hook); }
    // The state the scripts were checked in: which hooks are registered, by which file.
    const ScriptState* state() const { return state_.get(); }

    // API call points (loop thread).
    std::optional<core::Error> append_hooks(core::AppendInput& in, const config::LimitsConfig& limits);
    std::optional<core::Error> get_hooks(const core::GetSessionInput& in, std::string& body);
    // After a successful append: counts it, asks the trigger (or should_summarize) and enqueues;
    // true when a summary was enqueued (the answer's summary_enqueued). Extraction's trigger
    // is asked too (its job is never part of the answer).
    bool after_append(const core::AppendInput& in);
    // POST .../summarize: 503 when summarizing cannot work; 429 when the queue is full.
    std::optional<core::Error> can_summarize() const;
    bool enqueue_summary(SummaryJob job, Summaries::Done done);
    // Summary jobs waiting for a worker, oldest first.
    std::vector<SummaryJob> pending_summaries() const { return summaries_.pending(); }
    // Extraction jobs waiting for a worker.
    size_t queued_extractions() const { return extractions_.queued(); }

    // Lifecycle call points.
    bool finalize(const storage::SessionRow& session, core::FinalizeReason reason);  // loop thread
    // Where core reports lane moves; null when no reset hook is registered.
    core::LaneMoveSink* lane_moves() { return has(Hook::Reset) ? this : nullptr; }
    void moved(core::LaneMove move) override;  // any thread

private:
    bool should_summarize(const core::SessionRef& ref, const TriggerStats& stats);
    void run_lane_moves();
    std::optional<std::string> load(const std::shared_ptr<const config::Config>& config);
    // The app's state for a hook call; null with *error (logged) when the scripts cannot load in it.
    ScriptState* app_state(const std::string& app, std::string* error);

    uv_loop_t* loop_;
    const core::Clock& clock_;
    metrics::Registry& metrics_;
    std::shared_ptr<const config::Config> config_;
    std::unique_ptr<ScriptState> state_;
    AppStates apps_;
    std::shared_ptr<const ScriptSet> scripts_;
    Summaries summaries_;
    TriggerTracker tracker_;
    Extractions extractions_;
    uv_async_t moves_async_{};
    bool open_ = false;
    std::mutex moves_mutex_;
    std::vector<core::LaneMove> moves_;
};

}  // namespace mnemo::scripting
