/*
 * core/pending_write.h -- one storage write, prepared on the caller's thread
 * and then either run blocking (run) or queued on a backend that queues its
 * writes itself (Backend::async_writes: start, then finish once the
 * backend's done callback came), so no thread waits for the commit.
 *
 * Owns the request while it is in flight and the way from the collected
 * rows to the answer; each operation file builds its own (begin_* in
 * service.h) and keeps its blocking form as begin_*(...)->run(). An
 * operation that must read between its writes is a chain of WriteSteps.
 */
#pragma once

#include "core/service.h"
#include "storage/rows.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

namespace mnemo::core {

// A write operation of the table: its offset (what write_async names) and a
// blocking call of it.
struct WriteOp {
    size_t offset;
    int (*blocking)(const mnemo_storage_ops& ops, mnemo_backend* backend, const void* req, const mnemo_sink* sink,
                    mnemo_error* err);
};

template <typename Req>
int call_write_op(int (*op)(mnemo_backend*, const Req*, const mnemo_sink*, mnemo_error*), mnemo_backend* backend,
                  const void* req, const mnemo_sink* sink, mnemo_error* err) {
    return op(backend, static_cast<const Req*>(req), sink, err);
}
template <typename Req>
int call_write_op(int (*op)(mnemo_backend*, const Req*, mnemo_error*), mnemo_backend* backend, const void* req,
                  const mnemo_sink*, mnemo_error* err) {
    return op(backend, static_cast<const Req*>(req), err);
}

#define MNEMO_WRITE_OP(name)                                                                                  \
    ::mnemo::core::WriteOp {                                                                                  \
        offsetof(mnemo_storage_ops, name),                                                                    \
            [](const mnemo_storage_ops& ops, mnemo_backend* backend, const void* req, const mnemo_sink* sink, \
               mnemo_error* err) { return ::mnemo::core::call_write_op(ops.name, backend, req, sink, err); }  \
    }

class PendingWrite {
public:
    // Builds the answer from what the write collected, once it succeeded.
    using Render = std::function<Outcome(storage::Collected& result)>;
    // req points into `keep`, which lives as long as this write.
    PendingWrite(const Env& env, WriteOp op, std::shared_ptr<const void> keep, const void* req, Render render);
    PendingWrite(const PendingWrite&) = delete;
    PendingWrite& operator=(const PendingWrite&) = delete;

    // The whole write on this thread, waiting for the backend.
    Outcome run();
    // Queues it (write_async); the backend's immediate status: non-zero means
    // done will never be called. This write stays alive until then.
    int start(mnemo_done_fn done, void* done_ctx);
    // The answer, from the status done gave.
    Outcome finish(int status);
    // The backend queues it (start/finish) rather than run() on a thread.
    bool queueable() const { return env_.backend.async_writes(); }

private:
    Env env_;
    WriteOp op_;
    std::shared_ptr<const void> keep_;
    const void* req_;
    Render render_;
    storage::Collector collector_;
    mnemo_error err_{};
};

// An operation that reads around its writes (a lane: read, plan,
// compare-and-set, read again after a conflict). Each step runs on a thread
// that may block on reads and ends with the answer or with one write and
// what follows it, so the write can be queued (PendingWrite::start) without
// a thread waiting for it.
struct WriteStep {
    std::optional<Outcome> answer;
    std::shared_ptr<PendingWrite> write;
    // After the write, with what it answered; on a thread that may block.
    std::function<WriteStep(Outcome&& written)> then;

    static WriteStep answered(Outcome outcome);
    static WriteStep writing(std::shared_ptr<PendingWrite> write, std::function<WriteStep(Outcome&&)> then);
};
// The first step of an operation, not run yet.
using WriteSteps = std::function<WriteStep()>;

// Every step and write of `step` on this thread, waiting for each write.
Outcome run_steps(WriteStep step);

}  // namespace mnemo::core
