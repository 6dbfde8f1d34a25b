#include "console/loop_call.h"

#include <algorithm>
#include <future>

namespace mnemo::console {

// One call()'s answer: the first outcome wins (a completion may still arrive after close answered).
struct LoopCall::Waiter {
    std::mutex mutex;
    bool answered = false;
    std::promise<core::Outcome> promise;

    void answer(core::Outcome&& outcome) {
        std::lock_guard lock(mutex);
        if (answered) return;
        answered = true;
        promise.set_value(std::move(outcome));
    }
};

core::Outcome stopping_outcome() {
    return core::Outcome::fail(core::Error{core::ErrorCode::Unavailable, "the daemon is stopping", "{}"});
}

LoopCall::LoopCall(uv_loop_t* loop) : async_(new uv_async_t{}) {
    uv_async_init(loop, async_, [](uv_async_t* handle) { static_cast<LoopCall*>(handle->data)->run_queued(); });
    async_->data = this;
}

LoopCall::~LoopCall() {
    close();
}

void LoopCall::run_queued() {
    std::deque<std::function<void()>> tasks;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        tasks.swap(queue_);
    }
    for (auto& task : tasks) task();
}

core::Outcome LoopCall::call(Task task) {
    auto waiter = std::make_shared<Waiter>();
    auto answer = waiter->promise.get_future();
    {
        std::lock_guard lock(mutex_);
        if (closed_) return stopping_outcome();
        waiting_.push_back(waiter);
        queue_.push_back([task = std::move(task), waiter] {
            task([waiter](core::Outcome&& outcome) { waiter->answer(std::move(outcome)); });
        });
        uv_async_send(async_);
    }
    core::Outcome outcome = answer.get();
    forget(waiter);
    return outcome;
}

void LoopCall::forget(const std::shared_ptr<Waiter>& waiter) {
    std::lock_guard lock(mutex_);
    waiting_.erase(std::remove(waiting_.begin(), waiting_.end(), waiter), waiting_.end());
}

void LoopCall::post(std::function<void()> fn) {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    queue_.push_back(std::move(fn));
    uv_async_send(async_);  // under the lock: close() cannot close the handle in between
}

void LoopCall::close() {
    std::vector<std::shared_ptr<Waiter>> waiting;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        closed_ = true;
        queue_.clear();
        waiting.swap(waiting_);
    }
    for (auto& waiter : waiting) waiter->answer(stopping_outcome());
    uv_close(reinterpret_cast<uv_handle_t*>(async_),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_async_t*>(handle); });
}

}  // namespace mnemo::console
