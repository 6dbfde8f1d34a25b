// Executor::run_on_worker: the job runs on libuv's worker pool even when the
// backend is called inline, and its answer comes back on the loop thread.
#include "api/executor.h"

#include <gtest/gtest.h>

#include <optional>
#include <thread>

namespace mnemo::api {
namespace {

class ExecutorWorkerTest : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override { ASSERT_EQ(uv_loop_init(&loop_), 0); }
    void TearDown() override {
        executor_.reset();
        EXPECT_EQ(uv_loop_close(&loop_), 0) << "a handle was left open";
    }
    uv_loop_t loop_{};
    std::unique_ptr<Executor> executor_;
};

TEST_P(ExecutorWorkerTest, JobRunsOffTheLoopThreadAndAnswersOnIt) {
    bool run_inline = GetParam();
    executor_ = std::make_unique<Executor>(&loop_, run_inline);
    const std::thread::id loop_thread = std::this_thread::get_id();
    std::optional<std::thread::id> job_thread, done_thread;
    std::string answered;
    executor_->run_on_worker(
        [&] {
            job_thread = std::this_thread::get_id();
            return core::Outcome::ok("from the worker");
        },
        [&](core::Outcome&& outcome) {
            done_thread = std::this_thread::get_id();
            answered = outcome.body;
        });
    EXPECT_EQ(executor_->in_flight(), 1u) << "queued, not run at once, even with run_inline " << run_inline;
    uv_run(&loop_, UV_RUN_DEFAULT);
    ASSERT_TRUE(job_thread.has_value());
    EXPECT_NE(*job_thread, loop_thread);
    ASSERT_TRUE(done_thread.has_value());
    EXPECT_EQ(*done_thread, loop_thread);
    EXPECT_EQ(answered, "from the worker");
    EXPECT_EQ(executor_->in_flight(), 0u);
}

INSTANTIATE_TEST_SUITE_P(InlineOrNot, ExecutorWorkerTest, ::testing::Bool());

}  // namespace
}  // namespace mnemo::api
