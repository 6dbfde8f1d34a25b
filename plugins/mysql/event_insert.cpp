// event_insert.cpp -- an event row with its search columns (search_tokens.h:
// the host terms the FULLTEXT index holds; term_count, their number), and the
// refusal of an id a visible event of the session holds.
#include "connection.h"
#include "search_tokens.h"

namespace mnemo::mysql {

int64_t Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    Query insert(*this,
                 "INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, "
                 "state_delta, usage_json, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, "
                 "output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, "
                 "search_tokens, term_count) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::string_view search_text(event.search_text.ptr ? event.search_text.ptr : "", event.search_text.len);
    int64_t terms = 0;
    const std::string tokens = search_tokens::tokens_of(search_text, &terms);
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id,
                event.author.ptr ? event.author : str(""), event.role.ptr ? event.role : str(""), event.content_json,
                event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json, event.metadata_json,
                event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us, event.usage.input_tokens,
                event.usage.output_tokens, event.usage.cache_read_tokens, event.usage.cache_write_tokens,
                event.usage.total_tokens, event.usage.cost_usd, search_text, tokens, terms);
    try {
        insert.run();
    } catch (const StoreError& e) {
        // The only unique key an insert can break: a visible event holds the id.
        if (!e.duplicate_key()) throw;
        throw StoreError(MNEMO_E_INVALID, "event id " + text(event.id) +
                                              " is given twice to one session; ids must "
                                              "be unique among its visible events");
    }
    return terms;
}

}  // namespace mnemo::mysql
