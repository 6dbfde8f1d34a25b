#include "scripting/job_workers.h"

#include "observability/log.h"

#include <pthread.h>

#include <csignal>

namespace mnemo::scripting {

ScriptState* WorkerLua::prepare(const WorkerSnapshot& snapshot, const WorkerKind& kind) {
    std::optional<Bounds> bounds = kind.lua_bounds(*snapshot.config);
    if (!bounds) return nullptr;
    if (!state_ || generation_ != snapshot.generation) {
        generation_ = snapshot.generation;
        auto fresh = std::make_unique<ScriptState>(bounds_of(snapshot.config->scripts), snapshot.config);
        auto error = fresh->open_error();
        if (!error && snapshot.scripts) error = load_scripts(*fresh, *snapshot.scripts);
        if (error) {
            log::error("{} worker: cannot load the scripts ({}); keeping the previous ones", kind_, *error);
        } else {
            state_ = std::move(fresh);
        }
    }
    if (!state_) return nullptr;
    state_->set_config(snapshot.config);
    state_->set_bounds(*bounds);
    return state_.get();
}

void block_sigpipe_on_this_thread() {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
}

}  // namespace mnemo::scripting
