#include "api/executor.h"

#include "api/async_inbox.h"

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
