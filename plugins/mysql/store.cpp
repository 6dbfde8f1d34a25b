#include "mysql_store.h"

#include "driver.h"
#include "schema.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace mnemo::mysql {
namespace {

// InnoDB resolves a deadlock by rolling one transaction back; retrying it
// whole is the documented remedy. A connection found dead before COMMIT
// (the server restarted since it was opened) is retried on a fresh one.
constexpr int kBusyAttempts = 8;
constexpr int kLostAttempts = 3;
constexpr int kFirstDelayUs = 2000;
constexpr int kMaxDelayUs = 200000;

int64_t random_owner_id() {
    std::random_device device;
    std::uniform_int_distribution<int64_t> pick(1, INT64_MAX);
    return pick(device);
}

void sleep_jittered(int delay_us) {
    thread_local std::minstd_rand rng{std::random_device{}()};
    std::uniform_int_distribution<int> pick(delay_us / 2, delay_us);
    std::this_thread::sleep_for(std::chrono::microseconds(pick(rng)));
}

void roll_back(Conn& conn) {
    if (conn.broken()) return;
    try {
        conn.exec("ROLLBACK");
    } catch (const StoreError&) {
        // A broken connection is dropped by the pool; nothing to undo there.
    }
}

// Thrown by attempt() when the connection died inside COMMIT: the server may
// or may not have applied the transaction, so it must not be run again.
struct CommitLost {
    StoreError error;
};

}  // namespace

std::string lock_name(const std::string& purpose, const std::string& database) {
    return ("mnemo." + purpose + "." + database).substr(0, 64);
}

Store::Store(const Options& options) : pool_(options, random_owner_id()) {
    driver();
    Lease conn(pool_);
    migrate(*conn, options.database);
}

void Store::attempt(Kind kind, const Step& step, RecordedOutput& recorded) {
    Lease conn(pool_);
    recorded.clear();
    try {
        if (kind == Kind::Read) {
            conn->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            conn->exec("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        } else {
            conn->exec("START TRANSACTION");
            conn->set_writing(true);
        }
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
        throw CommitLost{
            StoreError(MNEMO_E_UNAVAILABLE, std::string(e.what()) +
                                                "; the connection was lost during COMMIT, so the write may or may not "
                                                "have been applied: re-read before retrying (appends with client event "
                                                "ids are safe to retry)")};
    }
}

void Store::transaction(Kind kind, const mnemo_sink* sink, const Step& step) {
    driver();
    RecordedOutput recorded;
    int delay_us = kFirstDelayUs;
    for (int busy = 1, lost = 1;;) {
        try {
            attempt(kind, step, recorded);
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

void Store::read(const mnemo_sink* sink, const Step& step) {
    transaction(Kind::Read, sink, step);
}

void Store::write(const mnemo_sink* sink, const Step& step) {
    transaction(Kind::Write, sink, step);
}

// GET_LOCK belongs to the connection, not the transaction: it is taken
// before the step and released after COMMIT or ROLLBACK, so another process
// never starts the same work while this one's changes are uncommitted.
void Store::write_locked(const std::string& lock, const mnemo_sink* sink, const LockedStep& step) {
    transaction(Kind::Write, sink, [&](Conn& conn, Output& out) {
        Query take(conn, "SELECT GET_LOCK(?, 0)");
        take.args(lock);
        const bool granted = take.step() && !take.is_null(0) && take.i64(0) == 1;
        try {
            step(conn, out, granted);
        } catch (...) {
            if (granted && !conn.broken()) Query(conn, "SELECT RELEASE_LOCK(?)").args(lock).step();
            throw;
        }
        if (!granted) return;
        conn.exec("COMMIT");
        conn.exec("START TRANSACTION");
        Query(conn, "SELECT RELEASE_LOCK(?)").args(lock).step();
    });
}

void Store::ping() {
    transaction(Kind::Read, nullptr, [](Conn& conn, Output&) { Query(conn, "SELECT 1").step(); });
}

}  // namespace mnemo::mysql
