#include "search_queue.h"

#include "connection.h"

namespace mnemo::sqlite {
namespace {

// A NULL command column is FTS5's plain insert; 'delete' takes the indexed text.
constexpr const char* kSearchQueueWords =
    "INSERT INTO events_words (events_words, rowid, search_text) "
    "SELECT CASE WHEN added = 0 THEN 'delete' END, doc, search_text FROM search_queue WHERE words = 1 ORDER BY qid";
constexpr const char* kSearchQueueTrigrams =
    "INSERT INTO events_trigrams (events_trigrams, rowid, search_text) "
    "SELECT CASE WHEN added = 0 THEN 'delete' END, doc, search_text FROM search_queue WHERE trigrams = 1 ORDER BY qid";
constexpr const char* kSearchQueueClear = "DELETE FROM search_queue";

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
