// event_insert.cpp -- an event row with its search columns: the writer's
// SearchBacklog indexes the row after COMMIT (search_backlog.h),
// search_trigrams flags the rows the trigram index takes (migrations.h v5)
// and term_count is its number of host terms (BM25's length).
#include "connection.h"
#include "host_services.h"

namespace mnemo::sqlite {

int64_t Conn::insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) {
    Query insert(
        *this,
        "INSERT INTO events (sid, seq, id, id_from_client, invocation_id, author, role, content, state_delta, "
        "usage, tool_calls, media, metadata, filter_key, timestamp_us, input_tokens, output_tokens, "
        "cache_read_tokens, cache_write_tokens, total_tokens, cost_usd, search_text, search_trigrams, term_count) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
        "?23, ?24)");
    std::string_view search_text(event.search_text.ptr ? event.search_text.ptr : "", event.search_text.len);
    bool trigrams = host::has_cjk(search_text);
    int64_t terms = 0;
    host::for_each_term(search_text, [&terms](size_t, size_t, std::string_view) { ++terms; });
    insert.args(sid, seq, event.id, event.id_from_client ? 1 : 0, event.invocation_id, event.author, event.role,
                event.content_json, event.state_delta_json, event.usage_json, event.tool_calls_json, event.media_json,
                event.metadata_json, event.filter_key.ptr ? event.filter_key : str(""), event.timestamp_us,
                event.usage.input_tokens, event.usage.output_tokens, event.usage.cache_read_tokens,
                event.usage.cache_write_tokens, event.usage.total_tokens, event.usage.cost_usd, search_text,
                trigrams ? 1 : 0, terms);
    insert.run();
    search_backlog_.inserted(*this, last_insert_id(), search_text, trigrams);
    return terms;
}

}  // namespace mnemo::sqlite
