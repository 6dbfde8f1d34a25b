#include "search_queue.h"

#include "connection.h"

namespace mnemo::sqlite {
namespace {

bool has_queued(Conn& conn) {
    Query pending(conn, "SELECT EXISTS (SELECT 1 FROM search_queue)");
    return pending.step() && pending.i64(0) != 0;
}

}  // namespace

void flush_search_queue(Conn& conn) {
    // A group of writes without events (state, lanes, sweeps) leaves both
    // FTS5 tables closed.
    if (!has_queued(conn)) return;
    Query(conn, kSearchQueueWords).run();
    Query(conn, kSearchQueueTrigrams).run();
    Query(conn, kSearchQueueClear).run();
}

}  // namespace mnemo::sqlite
