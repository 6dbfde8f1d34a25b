#include "postgres_store.h"

#include "options.h"
#include "pool.h"
#include "schema.h"
#include "server_store.h"

const char* const mnemo_backend::kEngine = "postgres";

namespace mnemo::sqlcore {

// Reads see one snapshot; writes see the latest committed rows at each
// statement, which the row locks they take (FOR UPDATE) then keep stable.
struct Store::Engine {
    explicit Engine(const postgres::Options& options)
        : pool(options, random_owner_id()),
          transactions(pool, {{"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"},
                              {"BEGIN ISOLATION LEVEL READ COMMITTED"}}) {}

    postgres::Pool pool;
    ServerTransactions<postgres::Pool, postgres::Lease, postgres::Conn> transactions;
};

Store::Store(const char* options_json) : engine_(std::make_unique<Engine>(postgres::parse_options(options_json))) {
    postgres::Lease conn(engine_->pool);
    postgres::migrate(*conn);
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

namespace mnemo::postgres {

void write_locked(Store& store, int64_t key, const mnemo_sink* sink, const LockedStep& step) {
    store.write(sink, [&](sqlcore::Db& db, Output& out) {
        auto& conn = static_cast<Conn&>(db);
        Query take(conn, "SELECT pg_try_advisory_xact_lock(?)");
        take.args(key);
        const bool granted = take.step() && take.i64(0) == 1;
        step(conn, out, granted);
    });
}

}  // namespace mnemo::postgres
