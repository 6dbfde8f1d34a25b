// event_insert.cpp -- an event row with its search columns (search_terms.h:
// the host terms the GIN index holds; term_count, their number).
#include "connection.h"
#include "event_rows.h"
#include "search_terms.h"

namespace mnemo::postgres {

int64_t Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    static const std::string kInsertSql = indexed_event_insert_sql("search_tsv", "array_to_tsvector(?::text[])");
    int64_t terms = 0;
    const std::string lexemes = search_terms::lexeme_array(view(event.search_text), &terms);
    insert_indexed_event(*this, kInsertSql, sid, seq, event, lexemes, terms);
    return terms;
}

}  // namespace mnemo::postgres
