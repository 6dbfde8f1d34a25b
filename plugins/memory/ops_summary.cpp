// Summaries: storing one (from_seq chained per filter key) and listing the latest per key.
#include "emit.h"
#include "errors.h"
#include "event_filter.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

namespace {

SummaryRec summary_from(const mnemo_summary_put_req& req, const SessionRec& session) {
    SummaryRec summary;
    summary.filter_key = copy(req.filter_key);
    summary.text = copy(req.text);
    summary.source = copy(req.source);
    const SummaryRec* previous = latest_summary(session, summary.filter_key);
    summary.from_seq = previous ? previous->up_to_seq + 1 : 1;
    summary.up_to_seq = req.up_to_seq != 0 ? req.up_to_seq : session.last_seq;
    summary.created_at_us = req.now_us;
    return summary;
}

int bad_range(mnemo_error* err, const mnemo_summary_put_req& req, const SummaryRec& summary, int64_t last_seq) {
    return fail(err, MNEMO_E_INVALID,
                "up_to_seq %lld of a summary for filter key \"%s\" of session %.*s/%.*s must be within %lld..%lld "
                "(after the previous summary, up to the last seq)",
                static_cast<long long>(summary.up_to_seq), summary.filter_key.c_str(), MNEMO_STR_ARG(req.key.user),
                MNEMO_STR_ARG(req.key.session_id), static_cast<long long>(summary.from_seq),
                static_cast<long long>(last_seq));
}

}  // namespace

int summary_put(mnemo_backend* backend, const mnemo_summary_put_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    SessionRec& session = *ref.session;
    SummaryRec summary = summary_from(*req, session);
    if (summary.up_to_seq < summary.from_seq || summary.up_to_seq > session.last_seq)
        return bad_range(err, *req, summary, session.last_seq);
    summary.events_covered = req->events_covered >= 0
                                 ? req->events_covered
                                 : count_visible(session, summary.filter_key, summary.from_seq, summary.up_to_seq);
    auto& history = session.summaries[summary.filter_key];
    history.push_back(std::move(summary));
    session.version += 1;
    touch_session(store, ref, req->now_us, true);
    emit_summary(sink, history.back());
    emit_result<&mnemo_sink::version>(sink, session.version);
    return MNEMO_OK;
}

int summary_list(mnemo_backend* backend, const mnemo_summary_list_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    for (const auto& [filter_key, history] : ref.session->summaries)
        if (!history.empty()) emit_summary(sink, history.back());
    return MNEMO_OK;
}

}  // namespace mnemo::memory
