#include "backend/requests.h"

#include <atomic>

namespace mnemo::backend_test {

std::string generated_id() {
    static std::atomic<int64_t> next{0};
    return "gen-" + std::to_string(++next);
}

std::vector<EventSpec> copies(const EventSpec& spec, int n) {
    std::vector<EventSpec> out(static_cast<size_t>(n), spec);
    for (EventSpec& e : out) e.id = generated_id();
    return out;
}

mnemo_event to_abi(const EventSpec& spec) {
    mnemo_event e{};
    e.id = S(spec.id);
    e.id_from_client = spec.from_client ? 1 : 0;
    e.invocation_id = maybe(spec.invocation_id);
    e.author = S(spec.author);
    e.role = S(spec.role);
    e.content_json = maybe(spec.content);
    e.state_delta_json = maybe(spec.state_delta);
    e.metadata_json = maybe(spec.metadata);
    e.usage_json = kAbsent;
    e.tool_calls_json = kAbsent;
    e.media_json = kAbsent;
    e.filter_key = S(spec.filter_key);
    e.timestamp_us = spec.timestamp;
    e.usage = spec.usage;
    e.search_text = S(spec.search_text);
    return e;
}

std::vector<mnemo_state_op> to_abi(const std::vector<StateOp>& ops) {
    std::vector<mnemo_state_op> out;
    for (const StateOp& op : ops) out.push_back(mnemo_state_op{op.scope, S(op.key), maybe(op.value)});
    return out;
}

Answer create_session(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key,
                      const CreateOptions& options) {
    std::vector<mnemo_state_op> state = to_abi(options.state_ops);
    mnemo_session_create_req req{};
    req.key = key;
    req.title = S(options.title);
    req.parent_id = maybe(options.parent_id);
    req.metadata_json = S(options.metadata);
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.ttl_us = options.ttl;
    req.now_us = options.now;
    req.app_state_ttl_us = options.app_ttl;
    req.user_state_ttl_us = options.user_ttl;
    req.max_state_bytes = options.max_state_bytes;
    return answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops.session_create(backend, &req, sink, err); });
}

Answer get_session(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key, int64_t now,
                   const mnemo_event_filter& filter, bool with_events) {
    mnemo_session_get_req req{key, now, with_events ? 1 : 0, filter};
    return answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops.session_get(backend, &req, sink, err); });
}

AppendAnswer append_events(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key,
                           const std::vector<EventSpec>& events, const AppendOptions& options) {
    std::vector<mnemo_event> abi_events;
    for (const EventSpec& spec : events) abi_events.push_back(to_abi(spec));
    std::vector<mnemo_state_op> state = to_abi(options.state_ops);
    mnemo_append_req req{};
    req.key = key;
    req.now_us = options.now;
    req.has_expected_version = options.expected_version.has_value();
    req.expected_version = options.expected_version.value_or(0);
    req.create_if_missing = options.create_if_missing;
    req.new_session_ttl_us = options.new_session_ttl;
    req.events = abi_events.data();
    req.n_events = abi_events.size();
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.event_limit = options.event_limit;
    req.app_state_ttl_us = options.app_ttl;
    req.user_state_ttl_us = options.user_ttl;
    req.max_state_bytes = options.max_state_bytes;
    req.want_state = options.want_state;
    AppendAnswer answer;
    answer.seqs.assign(events.size(), -1);
    answer.timestamps.assign(events.size(), -1);
    answer.result.seqs = answer.seqs.data();
    answer.result.timestamps_us = answer.timestamps.data();
    Recorder sink;
    answer.rc = ops.events_append(backend, &req, &answer.result, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

}  // namespace mnemo::backend_test
