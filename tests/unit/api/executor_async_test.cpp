// Executor::run_async: work a backend finishes on threads of its own comes
// back to the loop thread, once each, and keeps the loop alive only while
// some of it is awaited.
#include "api/executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace mnemo::api {
namespace {

class ExecutorAsyncTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(uv_loop_init(&loop_), 0); }
    void TearDown() override {
        executor_.reset();
        uv_run(&loop_, UV_RUN_DEFAULT);  // the inbox's close callback
        EXPECT_EQ(uv_loop_close(&loop_), 0) << "a handle was left open";
        for (std::thread& thread : backend_threads_) thread.join();
    }

    // A backend that completes on a thread of its own after `delay`.
    Executor::Start completes_later(int status, std::chrono::milliseconds delay) {
        return [this, status, delay](mnemo_done_fn done, void* ctx) {
            backend_threads_.emplace_back([=] {
                std::this_thread::sleep_for(delay);
                done(ctx, status);
            });
            return MNEMO_OK;
        };
    }

    uv_loop_t loop_{};
    std::unique_ptr<Executor> executor_ = std::make_unique<Executor>(&loop_, false);
    std::vector<std::thread> backend_threads_;
};

TEST_F(ExecutorAsyncTest, FinishAndDoneRunOnTheLoopThreadWithTheBackendsStatus) {
    std::thread::id loop_thread = std::this_thread::get_id();
    int finished_with = -1;
    std::string answer;
    executor_->run_async(
        completes_later(MNEMO_E_CONFLICT, std::chrono::milliseconds(20)),
        [&](int status) {
            finished_with = status;
            EXPECT_EQ(std::this_thread::get_id(), loop_thread);
            return core::Outcome::ok("{\"status\":" + std::to_string(status) + "}");
        },
        [&](core::Outcome&& outcome) {
            EXPECT_EQ(std::this_thread::get_id(), loop_thread);
            answer = outcome.body;
        });
    EXPECT_EQ(executor_->in_flight(), 1u);
    // Returns only when nothing keeps the loop alive: the awaited completion
    // must, and once it ran, the idle inbox must not.
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_EQ(finished_with, MNEMO_E_CONFLICT);
    EXPECT_EQ(answer, "{\"status\":3}");
    EXPECT_EQ(executor_->in_flight(), 0u);
}

TEST_F(ExecutorAsyncTest, EveryCompletionFromManyThreadsArrivesOnce) {
    constexpr int kCalls = 200;
    std::vector<int> arrivals(kCalls, 0);
    for (int i = 0; i < kCalls; ++i) {
        executor_->run_async(
            completes_later(MNEMO_OK, std::chrono::milliseconds(i % 7)),
            [](int status) { return core::Outcome::ok(std::to_string(status)); },
            [&arrivals, i](core::Outcome&& outcome) {
                EXPECT_EQ(outcome.body, "0");
                ++arrivals[static_cast<size_t>(i)];
            });
    }
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_EQ(executor_->in_flight(), 0u);
    for (int i = 0; i < kCalls; ++i) EXPECT_EQ(arrivals[static_cast<size_t>(i)], 1) << "call " << i;
}

TEST_F(ExecutorAsyncTest, WorkTheBackendRefusesAtOnceIsAnsweredAtOnce) {
    int finished_with = -1;
    bool answered = false;
    executor_->run_async([](mnemo_done_fn, void*) { return static_cast<int>(MNEMO_E_UNAVAILABLE); },
                         [&](int status) {
                             finished_with = status;
                             return core::Outcome::ok("{}");
                         },
                         [&](core::Outcome&&) { answered = true; });
    EXPECT_TRUE(answered);
    EXPECT_EQ(finished_with, MNEMO_E_UNAVAILABLE);
    EXPECT_EQ(executor_->in_flight(), 0u);
    EXPECT_EQ(uv_run(&loop_, UV_RUN_NOWAIT), 0) << "nothing awaited, so nothing keeps the loop alive";
}

}  // namespace
}  // namespace mnemo::api
