#include "api/executor.h"

#include "api/async_inbox.h"
#include "core/pending_write.h"

#include <memory>

namespace mnemo::api {
namespace {

struct Work {
    uv_work_t request{};
    Executor::Job job;
    Executor::Done done;
    core::Outcome outcome;
    size_t* in_flight;
};

void work_cb(uv_work_t* request) {
    auto* work = static_cast<Work*>(request->data);
    work->outcome = work->job();
}

void after_work_cb(uv_work_t* request, int status) {
    std::unique_ptr<Work> work(static_cast<Work*>(request->data));
    --*work->in_flight;
    if (status == UV_ECANCELED) {
        work->outcome = core::Outcome::fail(core::Error{core::ErrorCode::Unavailable, "the daemon is stopping", "{}"});
    }
    work->done(std::move(work->outcome));
}

}  // namespace

Executor::Executor(uv_loop_t* loop, bool run_inline) : loop_(loop), inline_(run_inline) {}

Executor::~Executor() = default;

void Executor::run_async(const Start& start, Finish finish, Done done) {
    if (!inbox_) inbox_ = std::make_unique<AsyncInbox>(loop_);
    ++in_flight_;
    AsyncInbox::Entry* entry = inbox_->expect([this, finish = std::move(finish), done = std::move(done)](int status) {
        --in_flight_;
        done(finish(status));
    });
    int status = start(&AsyncInbox::deliver, entry);
    if (status != MNEMO_OK) inbox_->complete_now(entry, status);
}

void Executor::run_write(std::shared_ptr<core::PendingWrite> write, Done done) {
    if (!write->queueable()) return run([write] { return write->run(); }, std::move(done));
    run_async([write](mnemo_done_fn backend_done, void* ctx) { return write->start(backend_done, ctx); },
              [write](int status) { return write->finish(status); }, std::move(done));
}

void Executor::run_steps(core::WriteSteps first, Done done) {
    // The step that ended in a queueable write, carried from the worker to the loop.
    auto queued = std::make_shared<core::WriteStep>();
    run(
        [first = std::move(first), queued] {
            core::WriteStep step = first();
            if (step.answer || !step.write->queueable()) return core::run_steps(std::move(step));
            *queued = std::move(step);
            return core::Outcome{};
        },
        [this, queued, done = std::move(done)](core::Outcome&& outcome) mutable {
            if (!queued->write) return done(std::move(outcome));
            run_write(queued->write, [this, then = std::move(queued->then), done](core::Outcome&& written) mutable {
                run_steps([then = std::move(then), written = std::make_shared<core::Outcome>(
                                                       std::move(written))] { return then(std::move(*written)); },
                          std::move(done));
            });
        });
}

void Executor::run(Job job, Done done) {
    if (inline_) {
        done(job());
        return;
    }
    run_on_worker(std::move(job), std::move(done));
}

void Executor::run_on_worker(Job job, Done done) {
    auto work = std::make_unique<Work>();
    work->job = std::move(job);
    work->done = std::move(done);
    work->in_flight = &in_flight_;
    work->request.data = work.get();
    ++in_flight_;
    if (uv_queue_work(loop_, &work->request, work_cb, after_work_cb) != 0) {
        --in_flight_;
        work->done(core::Outcome::fail(core::Error{core::ErrorCode::Internal, "cannot queue storage work", "{}"}));
        return;
    }
    work.release();
}

}  // namespace mnemo::api
