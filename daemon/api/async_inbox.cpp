#include "api/async_inbox.h"

#include <memory>

namespace mnemo::api {

struct AsyncInbox::Entry {
    OnLoop on_loop;
    AsyncInbox* inbox = nullptr;
    int status = 0;
};

AsyncInbox::AsyncInbox(uv_loop_t* loop) : handle_(new uv_async_t) {
    uv_async_init(loop, handle_, &AsyncInbox::on_wake);
    handle_->data = this;
    uv_unref(reinterpret_cast<uv_handle_t*>(handle_));
}

AsyncInbox::~AsyncInbox() {
    uv_close(reinterpret_cast<uv_handle_t*>(handle_),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_async_t*>(handle); });
}

AsyncInbox::Entry* AsyncInbox::expect(OnLoop on_loop) {
    auto entry = std::make_unique<Entry>();
    entry->on_loop = std::move(on_loop);
    entry->inbox = this;
    if (awaited_++ == 0) uv_ref(reinterpret_cast<uv_handle_t*>(handle_));
    return entry.release();
}

void AsyncInbox::complete_now(Entry* entry, int status) {
    entry->status = status;
    finish(entry);
}

// The wake-up is sent under the lock: once the loop took an entry (which
// needs the lock), its sender is done with the handle, so the inbox may be
// destroyed as soon as nothing is awaited.
void AsyncInbox::deliver(void* context, int status) {
    auto* entry = static_cast<Entry*>(context);
    AsyncInbox* inbox = entry->inbox;
    entry->status = status;
    std::lock_guard lock(inbox->mutex_);
    inbox->delivered_.push_back(entry);
    uv_async_send(inbox->handle_);
}

void AsyncInbox::on_wake(uv_async_t* handle) {
    static_cast<AsyncInbox*>(handle->data)->run_delivered();
}

void AsyncInbox::run_delivered() {
    std::vector<Entry*> batch;
    {
        std::lock_guard lock(mutex_);
        batch.swap(delivered_);
    }
    for (Entry* entry : batch) finish(entry);
}

void AsyncInbox::finish(Entry* entry) {
    std::unique_ptr<Entry> owned(entry);
    if (--awaited_ == 0) uv_unref(reinterpret_cast<uv_handle_t*>(handle_));
    owned->on_loop(owned->status);
}

}  // namespace mnemo::api
