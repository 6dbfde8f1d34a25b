#include "mysql_store.h"

#include "driver.h"
#include "options.h"
#include "pool.h"
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

enum class Kind { Read, Write };

}  // namespace

std::string lock_name(const std::string& purpose, const std::string& database) {
    return ("mnemo." + purpose + "." + database).substr(0, 64);
}

}  // namespace mnemo::mysql

const char* const mnemo_backend::kEngine = "mysql";

namespace mnemo::sqlcore {

struct Store::Engine {
    explicit Engine(const mysql::Options& options) : pool(options, mysql::random_owner_id()) {}
    void attempt(mysql::Kind kind, const Step& step, RecordedOutput& recorded);
    void transaction(mysql::Kind kind, const mnemo_sink* sink, const Step& step);

    mysql::Pool pool;
};

Store::Store(const char* options_json) : engine_(std::make_unique<Engine>(mysql::parse_options(options_json))) {
    mysql::driver();
    mysql::Lease conn(engine_->pool);
    mysql::migrate(*conn, engine_->pool.options().database);
}

Store::~Store() = default;

void Store::Engine::attempt(mysql::Kind kind, const Step& step, RecordedOutput& recorded) {
    mysql::Lease conn(pool);
    recorded.clear();
    try {
        if (kind == mysql::Kind::Read) {
            conn->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            conn->exec("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        } else {
            conn->exec("START TRANSACTION");
            conn->set_writing(true);
        }
        step(*conn, recorded);
    } catch (...) {
        mysql::roll_back(*conn);
        throw;
    }
    try {
        conn->exec("COMMIT");
    } catch (const StoreError& e) {
        if (!conn->broken()) {
            mysql::roll_back(*conn);
            throw;
        }
        throw mysql::CommitLost{
            StoreError(MNEMO_E_UNAVAILABLE, std::string(e.what()) +
                                                "; the connection was lost during COMMIT, so the write may or may not "
                                                "have been applied: re-read before retrying (appends with client event "
                                                "ids are safe to retry)")};
    }
}

void Store::Engine::transaction(mysql::Kind kind, const mnemo_sink* sink, const Step& step) {
    mysql::driver();
    RecordedOutput recorded;
    int delay_us = mysql::kFirstDelayUs;
    for (int busy = 1, lost = 1;;) {
        try {
            attempt(kind, step, recorded);
            break;
        } catch (const mysql::CommitLost& e) {
            throw e.error;
        } catch (const StoreError& e) {
            const bool may_retry_busy = e.code() == MNEMO_E_BUSY && busy < mysql::kBusyAttempts;
            const bool may_retry_lost = e.code() == MNEMO_E_UNAVAILABLE && lost < mysql::kLostAttempts;
            if (e.code() == MNEMO_E_BUSY && !may_retry_busy)
                throw StoreError(MNEMO_E_UNAVAILABLE, std::string(e.what()) + "; still contended after " +
                                                          std::to_string(busy) + " attempts, retry later");
            if (!may_retry_busy && !may_retry_lost) throw;
            (may_retry_busy ? busy : lost) += 1;
        }
        mysql::sleep_jittered(delay_us);
        delay_us = std::min(delay_us * 2, mysql::kMaxDelayUs);
    }
    SinkOutput out(sink);
    recorded.replay(out);
}

void Store::read(const mnemo_sink* sink, const Step& step) {
    engine_->transaction(mysql::Kind::Read, sink, step);
}

void Store::write(const mnemo_sink* sink, const Step& step) {
    engine_->transaction(mysql::Kind::Write, sink, step);
}

void Store::ping() {
    engine_->transaction(mysql::Kind::Read, nullptr, [](Db& conn, Output&) { Query(conn, "SELECT 1").step(); });
}

}  // namespace mnemo::sqlcore

namespace mnemo::mysql {

// GET_LOCK belongs to the connection, not the transaction: it is taken
// before the step and released after COMMIT or ROLLBACK, so another process
// never starts the same work while this one's changes are uncommitted.
void write_locked(Store& store, const std::string& purpose, const mnemo_sink* sink, const LockedStep& step) {
    const std::string lock = lock_name(purpose, store.engine().pool.options().database);
    store.engine().transaction(Kind::Write, sink, [&](sqlcore::Db& db, Output& out) {
        auto& conn = static_cast<Conn&>(db);
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

}  // namespace mnemo::mysql
