// server_store.h -- how a store on a database server (mysql, postgres) runs a
// step: one server transaction per operation on a pooled connection
// (server_pool.h), its rows recorded and handed to the sink only after
// COMMIT, the whole transaction run again after a deadlock, a serialization
// failure, a lock wait past its bound (MNEMO_E_BUSY) or a connection that
// died before COMMIT (the server restarted since it was opened), with
// jittered exponential backoff. A connection lost inside COMMIT is not
// retried: the server may or may not have applied it.
#pragma once

#include "output.h"
#include "sql_store.h"
#include "store_error.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace mnemo::sqlcore {

// The statements that open a read snapshot and a write transaction, and
// what a thread does before its first (NULL: nothing).
struct TransactionForms {
    std::vector<std::string> begin_read, begin_write;
    void (*enter_thread)() = nullptr;
};

// A random id for this backend instance (Db::owner_id: finalize claims).
inline int64_t random_owner_id() {
    std::random_device device;
    std::uniform_int_distribution<int64_t> pick(1, INT64_MAX);
    return pick(device);
}

template <typename Pool, typename Lease, typename Conn>
class ServerTransactions {
public:
    ServerTransactions(Pool& pool, TransactionForms forms) : pool_(pool), forms_(std::move(forms)) {}

    void run(bool write, const mnemo_sink* sink, const Store::Step& step) {
        if (forms_.enter_thread) forms_.enter_thread();
        RecordedOutput recorded;
        int delay_us = kFirstDelayUs;
        for (int busy = 1, lost = 1;;) {
            try {
                attempt(write, step, recorded);
                break;
            } catch (const CommitLost& e) {
                throw e.error;
            } catch (const StoreError& e) {
                const bool may_retry_busy = e.code() == MNEMO_E_BUSY && busy < kBusyAttempts;
                const bool may_retry_lost = e.code() == MNEMO_E_UNAVAILABLE && lost < kLostAttempts;
                if (e.code() == MNEMO_E_BUSY && !may_retry_busy)
                    throw StoreError(MNEMO_E_UNAVAILABLE, std::string(e.what()) + "; still contended after " +
                                                              std::to_string(busy) + " attempts, retry later");
                if (!may_retry_busy && !may_retry_lost) throw;
                (may_retry_busy ? busy : lost) += 1;
            }
            sleep_jittered(delay_us);
            delay_us = std::min(delay_us * 2, kMaxDelayUs);
        }
        SinkOutput out(sink);
        recorded.replay(out);
    }

private:
    static constexpr int kBusyAttempts = 8;
    static constexpr int kLostAttempts = 3;
    static constexpr int kFirstDelayUs = 2000;
    static constexpr int kMaxDelayUs = 200000;

    // Thrown by attempt() when the connection died inside COMMIT.
    struct CommitLost {
        StoreError error;
    };

    static void sleep_jittered(int delay_us) {
        thread_local std::minstd_rand rng{std::random_device{}()};
        std::uniform_int_distribution<int> pick(delay_us / 2, delay_us);
        std::this_thread::sleep_for(std::chrono::microseconds(pick(rng)));
    }

    static void roll_back(Conn& conn) {
        if (conn.broken()) return;
        try {
            conn.exec("ROLLBACK");
        } catch (const StoreError&) {
            // A broken connection is dropped by the pool; nothing to undo there.
        }
    }

    void attempt(bool write, const Store::Step& step, RecordedOutput& recorded) {
        Lease conn(pool_);
        recorded.clear();
        try {
            for (const std::string& statement : write ? forms_.begin_write : forms_.begin_read) conn->exec(statement);
            conn->set_writing(write);
            step(*conn, recorded);
        } catch (...) {
            roll_back(*conn);
            throw;
        }
        try {
            conn->exec("COMMIT");
        } catch (const StoreError& e) {
            if (!conn->broken()) {
                roll_back(*conn);
                throw;
            }
            throw CommitLost{StoreError(
                MNEMO_E_UNAVAILABLE, std::string(e.what()) +
                                         "; the connection was lost during COMMIT, so the write may or may not have "
                                         "been applied: re-read before retrying (appends with client event ids are "
                                         "safe to retry)")};
        }
    }

    Pool& pool_;
    TransactionForms forms_;
};

}  // namespace mnemo::sqlcore
