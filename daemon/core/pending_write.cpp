#include "core/pending_write.h"

#include "core/service_util.h"

namespace mnemo::core {

PendingWrite::PendingWrite(const Env& env, WriteOp op, std::shared_ptr<const void> keep, const void* req, Render render)
    : env_(env), op_(op), keep_(std::move(keep)), req_(req), render_(std::move(render)) {}

Outcome PendingWrite::run() {
    if (auto failed = run_storage(env_, [this](mnemo_error* err) {
            return op_.blocking(env_.backend.ops(), env_.backend.handle(), req_, collector_.sink(), err);
        })) {
        return *failed;
    }
    return render_(collector_.result());
}

int PendingWrite::start(mnemo_done_fn done, void* done_ctx) {
    err_ = mnemo_error{};
    err_.current_version = -1;
    return env_.backend.ops().write_async(env_.backend.handle(), op_.offset, req_, collector_.sink(), &err_, done,
                                          done_ctx);
}

Outcome PendingWrite::finish(int status) {
    if (status != MNEMO_OK) return Outcome::fail(from_storage(storage::Backend::error_of(status, err_)));
    return render_(collector_.result());
}

WriteStep WriteStep::answered(Outcome outcome) {
    WriteStep step;
    step.answer = std::move(outcome);
    return step;
}

WriteStep WriteStep::writing(std::shared_ptr<PendingWrite> write, std::function<WriteStep(Outcome&&)> then) {
    WriteStep step;
    step.write = std::move(write);
    step.then = std::move(then);
    return step;
}

Outcome run_steps(WriteStep step) {
    while (!step.answer) {
        Outcome written = step.write->run();
        WriteStep next = step.then(std::move(written));
        step = std::move(next);
    }
    return std::move(*step.answer);
}

}  // namespace mnemo::core
