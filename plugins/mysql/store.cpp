#include "mysql_store.h"

#include "driver.h"
#include "options.h"
#include "pool.h"
#include "schema.h"
#include "server_store.h"

namespace mnemo::mysql {

std::string lock_name(const std::string& purpose, const std::string& database) {
    return ("mnemo." + purpose + "." + database).substr(0, 64);
}

}  // namespace mnemo::mysql

const char* const mnemo_backend::kEngine = "mysql";

namespace mnemo::sqlcore {

// Reads see one consistent snapshot; writes run READ COMMITTED (the
// session's level: connection.cpp) and lock the rows they decide on. Every
// thread that talks to the server registers with the client library first.
struct Store::Engine {
    explicit Engine(const mysql::Options& options)
        : pool(options, random_owner_id()),
          transactions(pool, {{"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                               "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"},
                              {"START TRANSACTION"},
                              [] { mysql::driver(); }}) {}

    mysql::Pool pool;
    ServerTransactions<mysql::Pool, mysql::Lease, mysql::Conn> transactions;
};

Store::Store(const char* options_json) : engine_(std::make_unique<Engine>(mysql::parse_options(options_json))) {
    mysql::driver();
    mysql::Lease conn(engine_->pool);
    mysql::migrate(*conn, engine_->pool.options().database);
}

Store::~Store() = default;

void Store::read(const mnemo_sink* sink, const Step& step) {
    engine_->transactions.run(false, sink, step);
}

void Store::write(const mnemo_sink* sink, const Step& step) {
    engine_->transactions.run(true, sink, step);
}

void Store::ping() {
    read(nullptr, [](Db& conn, Output&) { Query(conn, "SELECT 1").step(); });
}

}  // namespace mnemo::sqlcore

namespace mnemo::mysql {

// GET_LOCK belongs to the connection, not the transaction: it is taken
// before the step and released after COMMIT or ROLLBACK, so another process
// never starts the same work while this one's changes are uncommitted.
void write_locked(Store& store, const std::string& purpose, const mnemo_sink* sink, const LockedStep& step) {
    const std::string lock = lock_name(purpose, store.engine().pool.options().database);
    store.write(sink, [&](sqlcore::Db& db, Output& out) {
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
