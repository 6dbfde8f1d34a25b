/*
 * scripting/loop_inbox.h -- what worker threads hand back to the loop.
 *
 * A uv_async and a locked list: post() from any thread, and the drain
 * callback runs on the loop thread with everything posted since it last
 * ran, oldest first. Summaries and Extractions take their workers'
 * outcomes this way. Close it only once nothing posts any more (the
 * workers are joined).
 */
#pragma once

#include <uv.h>

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace mnemo::scripting {

template <class T>
class LoopInbox {
public:
    using Drain = std::function<void(std::vector<T>&&)>;

    void open(uv_loop_t* loop, Drain drain) {
        drain_ = std::move(drain);
        uv_async_init(loop, &async_, [](uv_async_t* handle) { static_cast<LoopInbox*>(handle->data)->take(); });
        async_.data = this;
        open_ = true;
    }
    bool is_open() const { return open_; }
    void post(T&& item) {  // any thread
        {
            std::lock_guard lock(mutex_);
            items_.push_back(std::move(item));
        }
        uv_async_send(&async_);
    }
    void close() {
        if (!open_) return;
        open_ = false;
        uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
    }

private:
    void take() {
        std::vector<T> items;
        {
            std::lock_guard lock(mutex_);
            items.swap(items_);
        }
        drain_(std::move(items));
    }

    uv_async_t async_{};
    bool open_ = false;
    Drain drain_;
    std::mutex mutex_;
    std::vector<T> items_;
};

}  // namespace mnemo::scripting
