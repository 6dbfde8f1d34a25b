// event_insert.cpp -- an event row with its search columns (search_tokens.h:
// the host terms the FULLTEXT index holds; term_count, their number).
#include "connection.h"
#include "event_rows.h"
#include "search_tokens.h"

namespace mnemo::mysql {

int64_t Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    static const std::string kInsertSql = indexed_event_insert_sql("search_tokens", "?");
    int64_t terms = 0;
    const std::string tokens = search_tokens::tokens_of(view(event.search_text), &terms);
    insert_indexed_event(*this, kInsertSql, sid, seq, event, tokens, terms);
    return terms;
}

}  // namespace mnemo::mysql
