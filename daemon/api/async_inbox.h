/*
 * api/async_inbox.h -- completions that backend threads hand to the loop.
 *
 * Owns one uv_async_t and the list behind it. The loop thread registers each
 * completion it awaits (expect) and gives the backend deliver() and the
 * entry as its mnemo_done_fn and context; a backend thread calls deliver(),
 * which only appends to the list and wakes the loop (libuv coalesces the
 * wake-ups, so a whole group commit costs one); the loop thread then runs
 * every delivered completion in order. The handle keeps the loop alive only
 * while a completion is awaited.
 */
#pragma once

#include <uv.h>

#include <functional>
#include <mutex>
#include <vector>

namespace mnemo::api {

class AsyncInbox {
public:
    using OnLoop = std::function<void(int status)>;
    struct Entry;

    explicit AsyncInbox(uv_loop_t* loop);
    ~AsyncInbox();  // on the loop thread, with nothing awaited; closes the handle
    AsyncInbox(const AsyncInbox&) = delete;
    AsyncInbox& operator=(const AsyncInbox&) = delete;

    // Loop thread: a completion to await; on_loop runs once it is delivered.
    Entry* expect(OnLoop on_loop);
    // Loop thread: the backend refused the work at once and will never call
    // deliver; on_loop runs now with that status.
    void complete_now(Entry* entry, int status);
    // Any thread, once per entry (a mnemo_done_fn).
    static void deliver(void* entry, int status);

private:
    static void on_wake(uv_async_t* handle);
    void run_delivered();
    void finish(Entry* entry);

    uv_async_t* handle_;  // freed by its close callback
    std::mutex mutex_;
    std::vector<Entry*> delivered_;  // guarded by mutex_
    size_t awaited_ = 0;             // loop thread only
};

}  // namespace mnemo::api
