#include "scripting/job_workers.h"

#include "observability/log.h"

#include <pthread.h>

#include <csignal>

namespace mnemo::scripting {

ScriptState* WorkerLua::prepare(const WorkerSnapshot& snapshot, const WorkerKind& kind, const std::string& app) {
    std::optional<Bounds> bounds = kind.lua_bounds(*snapshot.config);
    if (!bounds) return nullptr;
    states_.use(snapshot.scripts, snapshot.config);
    std::string error;
    ScriptState* state = states_.get(app, *bounds, &error);
    if (state == nullptr) log::error("{} worker: {}", kind_, error);
    return state;
}

void block_sigpipe_on_this_thread() {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
}

}  // namespace mnemo::scripting
