#include "lifecycle/finalizer.h"

#include "lifecycle/storage_steps.h"
#include "observability/log.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

namespace mnemo::lifecycle {
namespace {

// What one stored batch carries from the worker to the loop and back.
struct BatchState {
    FinalizeBatch batch;
    std::vector<bool> hook_ok;
    std::vector<FinalizeMark> marks;
    int64_t loop_us = 0;  // the longest loop turn of this batch
};

int64_t micros_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool Finalizer::call_hooks(const core::FinalizeItem& item) const {
    return callbacks_.run(item.session, item.reason);
}

void Finalizer::report(const core::FinalizeItem& item, bool hook_ok, int64_t failures) const {
    const auto& s = item.session;
    auto reason = core::finalize_reason_name(item.reason);
    if (hook_ok) {
        log::debug("finalize session {}/{}/{} reason={}", s.app, s.user, s.id, reason);
    } else {
        log::warn(
            "finalize hook failed {} time(s) for session {}/{}/{} (reason={}); marked finalized anyway "
            "(sweep.finalize_retries)",
            failures, s.app, s.user, s.id, reason);
    }
    metrics_.add_swept("finalized", 1);
}

void Finalizer::finalize_inbox(uint32_t retries) {
    for (auto& item : inbox_.take()) {
        bool ok = call_hooks(item);
        if (!ok) ++item.failed_attempts;
        if (ok || item.failed_attempts >= static_cast<int64_t>(retries)) {
            report(item, ok, item.failed_attempts);
        } else {
            inbox_.push(std::move(item));
        }
    }
}

void Finalizer::finalize_batch(int64_t limit, uint32_t retries, BatchDone done) {
    auto state = std::make_shared<BatchState>();
    int64_t now = clock_.now_us();
    // One transaction for the whole batch when the plugin can: each its own would wait for its own commit.
    auto mark_all = [this, state, now, retries](const api::Executor::Done& marked) {
        const auto& items = state->batch.items;
        if (has_finalize_batch(backend_)) {
            // The write reads only the backend of its env.
            core::Env env{backend_, nullptr, clock_};
            std::shared_ptr<std::vector<FinalizeMark>> marks(state, &state->marks);
            auto write = begin_mark_finalized_batch(env, items, state->hook_ok, now, retries, marks);
            return executor_.run_write(std::move(write), [state, marked](core::Outcome&& outcome) {
                if (outcome.error) {
                    state->marks.assign(state->batch.items.size(), FinalizeMark{});
                    for (auto& mark : state->marks)
                        mark.error = fmt::format("finalize done batch failed: {}", outcome.error->message);
                }
                marked(std::move(outcome));
            });
        }
        executor_.run(
            [this, state, now, retries] {
                const auto& items = state->batch.items;
                for (size_t i = 0; i < items.size(); ++i) {
                    state->marks.push_back(mark_finalized(backend_, items[i].session, now, state->hook_ok[i], retries));
                }
                return core::Outcome::ok({});
            },
            marked);
    };
    auto after_marks = [this, state, limit, done](core::Outcome&&) {
        auto started = std::chrono::steady_clock::now();
        bool any_finalized = false;
        const auto& items = state->batch.items;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto& mark = state->marks[i];
            if (mark.error) {
                log::warn("finalize of session {}/{}/{}: {}", items[i].session.app, items[i].session.user,
                          items[i].session.id, *mark.error);
                metrics_.add_storage_error();
                continue;
            }
            if (!mark.finalized) continue;
            any_finalized = true;
            report(items[i], state->hook_ok[i], items[i].failed_attempts + (state->hook_ok[i] ? 0 : 1));
        }
        state->loop_us = std::max(state->loop_us, micros_since(started));
        done(any_finalized && static_cast<int64_t>(items.size()) >= limit, state->loop_us);
    };
    auto after_list = [this, state, done, mark_all, after_marks](core::Outcome&&) {
        if (state->batch.error) {
            log::warn("finalize pass stopped: {}", *state->batch.error);
            metrics_.add_storage_error();
            return done(false, 0);
        }
        auto started = std::chrono::steady_clock::now();
        for (const auto& item : state->batch.items) state->hook_ok.push_back(call_hooks(item));
        if (state->batch.items.empty()) return done(false, micros_since(started));
        state->loop_us = micros_since(started);
        mark_all(after_marks);
    };
    executor_.run(
        [this, state, now, limit] {
            state->batch = list_finalize(backend_, now, limit);
            return core::Outcome::ok({});
        },
        after_list);
}

}  // namespace mnemo::lifecycle
