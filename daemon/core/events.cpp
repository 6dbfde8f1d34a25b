// Event operations: append, list, rewrite (PUT), rewind.
#include "core/capture.h"
#include "core/json_writer.h"
#include "core/pending_write.h"
#include "core/render.h"
#include "core/service_util.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

struct StoredBatch {
    std::vector<EventInput*> events;  // non-partial, in order
    std::vector<mnemo_event> views;   // storage views of `events`
    std::vector<mnemo_state_op> ops;  // every stored event's delta, in order
    std::vector<const StateChange*> temps;
    bool any_delta = false;
    int64_t skipped_partial = 0;
};

StoredBatch prepare_batch(std::vector<EventInput>& events, int64_t now_us, bool store_nulls_in_deltas) {
    StoredBatch batch;
    for (auto& event : events) {
        if (event.partial) {
            ++batch.skipped_partial;
            continue;
        }
        complete_event(event, now_us);
        batch.events.push_back(&event);
    }
    for (auto* event : batch.events) {
        batch.views.push_back(to_storage_event(*event));
        if (store_nulls_in_deltas) store_nulls(event->delta);
        if (event->delta.stored_json || !event->delta.changes.empty()) batch.any_delta = true;
        auto ops = to_ops(event->delta.changes);
        batch.ops.insert(batch.ops.end(), ops.begin(), ops.end());
        for (auto* temp : temp_changes_of(event->delta.changes)) batch.temps.push_back(temp);
    }
    return batch;
}

// A batch made only of partial events stores nothing; it still needs the
// session (or creates it) to answer with the current version.
Outcome answer_partial_only(const Env& env, AppendInput& in, int64_t skipped) {
    mnemo_session_get_req req{};
    req.key = key_of(in.ref);
    req.now_us = env.clock.now_us();
    storage::Collector collector;
    auto failed = run_storage(env, [&](mnemo_error* err) {
        return env.backend.ops().session_get(env.backend.handle(), &req, collector.sink(), err);
    });
    int64_t version = 0;
    if (failed && failed->error->code == ErrorCode::NotFound && in.create_if_missing) {
        CreateSessionInput create;
        create.app = in.ref.app;
        create.user = in.ref.user;
        create.id = in.ref.id;
        auto created = create_session(env, create);
        if (created.error && created.error->code != ErrorCode::AlreadyExists) return created;
        version = 1;
    } else if (failed) {
        return *failed;
    } else {
        version = collector.result().sessions.front().version;
    }
    auto reply = std::make_shared<AppendReply>();
    reply->version = version;
    reply->skipped_partial = skipped;
    reply->dropped = in.dropped;
    Outcome outcome;
    outcome.append = std::move(reply);
    return outcome;
}

std::optional<std::string> target_text_of(const storage::EventRow& event) {
    return event.content_json ? content_text(*event.content_json) : std::nullopt;
}

}  // namespace

// What one append's storage call reads and writes; it stays put during the
// call (req points into batch, result into seqs and timestamps).
struct AppendCall {
    AppendCall(const Env& env_, AppendInput& in_) : env(env_), in(in_) {}
    Env env;
    AppendInput& in;
    StoredBatch batch;
    CapturePlan captures;
    mnemo_append_req req{};
    std::vector<int64_t> seqs, timestamps;
    mnemo_append_result result{};
    storage::Collector collector;
    mnemo_error err{};
};

namespace {

// nullptr when the batch holds only partial events.
std::unique_ptr<AppendCall> prepare_append(const Env& env, AppendInput& in) {
    auto call = std::make_unique<AppendCall>(env, in);
    int64_t now = env.clock.now_us();
    call->batch = prepare_batch(in.events, now, in.store_nulls);
    StoredBatch& batch = call->batch;
    if (batch.events.empty()) return nullptr;
    const auto& ttl = env.config->ttl_for(in.ref.app);
    const auto& limits = env.config->limits_for(in.ref.app);
    mnemo_append_req& req = call->req;
    req.key = key_of(in.ref);
    req.now_us = now;
    req.has_expected_version = in.expected_version ? 1 : 0;
    req.expected_version = in.expected_version.value_or(0);
    req.create_if_missing = in.create_if_missing ? 1 : 0;
    req.new_session_ttl_us = ttl.session_us;
    req.events = batch.views.data();
    req.n_events = batch.views.size();
    req.state_ops = batch.ops.data();
    req.n_state_ops = batch.ops.size();
    req.event_limit = limits.event_limit;
    req.app_state_ttl_us = ttl.app_state_us;
    req.user_state_ttl_us = ttl.user_state_us;
    req.max_state_bytes = static_cast<int64_t>(limits.max_state_bytes);
    req.want_state = batch.any_delta ? 1 : 0;
    call->captures = plan_captures(env.config->memory_for(in.ref.app), env.backend.memories(), batch.events, now);
    call->captures.attach(req);
    call->seqs.resize(batch.views.size());
    call->timestamps.resize(batch.views.size());
    call->result.seqs = call->seqs.data();
    call->result.timestamps_us = call->timestamps.data();
    call->err.current_version = -1;
    return call;
}

Outcome reply_of(AppendCall& call) {
    const StoredBatch& batch = call.batch;
    auto reply = std::make_shared<AppendReply>();
    reply->version = call.result.version;
    reply->appended.reserve(batch.events.size());
    for (size_t i = 0; i < batch.events.size(); ++i)
        reply->appended.push_back(AppendedEvent{batch.events[i]->id, call.seqs[i], call.timestamps[i]});
    reply->skipped_partial = batch.skipped_partial;
    reply->dropped = call.in.dropped;
    reply->evicted = call.result.evicted;
    if (batch.any_delta) reply->state_json = merged_state_json(call.collector.result().state, batch.temps);
    Outcome outcome;
    outcome.append = std::move(reply);
    return outcome;
}

}  // namespace

std::string render_append(const AppendReply& reply, bool summary_enqueued) {
    std::string body;
    body.reserve(128 + 96 * reply.appended.size());
    JsonWriter w(body);
    w.begin_object().field("version", reply.version).key("appended").begin_array();
    for (const AppendedEvent& event : reply.appended) {
        w.begin_object().field("id", event.id).field("seq", event.seq).key("timestamp");
        write_timestamp(w, event.timestamp_us);
        w.end_object();
    }
    w.end_array().field("skipped_partial", reply.skipped_partial).field("dropped", reply.dropped);
    w.field("evicted", reply.evicted).field("summary_enqueued", summary_enqueued);
    if (reply.state_json) w.raw_field("state", *reply.state_json);
    w.end_object();
    return body;
}

Outcome append_events(const Env& env, AppendInput& in) {
    std::unique_ptr<AppendCall> call = prepare_append(env, in);
    if (!call) return answer_partial_only(env, in, static_cast<int64_t>(in.events.size()));
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().events_append(env.backend.handle(), &call->req, &call->result,
                                                   call->collector.sink(), err);
        })) {
        return *failed;
    }
    return reply_of(*call);
}

std::unique_ptr<PendingAppend> PendingAppend::begin(const Env& env, AppendInput& in) {
    std::unique_ptr<AppendCall> call = prepare_append(env, in);
    if (!call) return nullptr;
    return std::unique_ptr<PendingAppend>(new PendingAppend(std::move(call)));
}

PendingAppend::PendingAppend(std::unique_ptr<AppendCall> call) : call_(std::move(call)) {}
PendingAppend::~PendingAppend() = default;

int PendingAppend::start(mnemo_done_fn done, void* done_ctx) {
    const storage::Backend& backend = call_->env.backend;
    return backend.ops().events_append_async(backend.handle(), &call_->req, &call_->result, call_->collector.sink(),
                                             &call_->err, done, done_ctx);
}

Outcome PendingAppend::finish(int status) {
    if (status != MNEMO_OK) return Outcome::fail(from_storage(storage::Backend::error_of(status, call_->err)));
    return reply_of(*call_);
}

Outcome list_events(const Env& env, const ListEventsInput& in) {
    mnemo_events_list_req req{};
    req.key = key_of(in.ref);
    req.now_us = env.clock.now_us();
    req.filter.after_seq = in.after_seq;
    req.filter.limit = in.limit;
    req.filter.roles = in.roles ? storage::str(*in.roles) : storage::absent();
    req.filter.filter_key = storage::absent();
    req.filter.include_deleted = in.include_deleted ? 1 : 0;
    storage::Collector collector;
    EventArrayRenderer events([](JsonWriter& w) {
        w.begin_object().key("events");
        return true;
    });
    events.attach(collector);
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().events_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    events.finish();
    JsonWriter& w = events.writer();
    w.key("next_after_seq");
    if (collector.result().has_more && events.count() > 0) {
        w.integer(events.last_seq());
    } else {
        w.null();
    }
    w.end_object();
    return Outcome::ok(events.take());
}

std::shared_ptr<PendingWrite> begin_rewrite_events(const Env& env, std::shared_ptr<RewriteInput> in) {
    struct Rewrite {
        std::shared_ptr<RewriteInput> in;
        StoredBatch batch;
        CapturePlan captures;
        mnemo_rewrite_req req{};
    };
    int64_t now = env.clock.now_us();
    auto rewrite = std::make_shared<Rewrite>();
    rewrite->in = std::move(in);
    RewriteInput& input = *rewrite->in;
    rewrite->batch = prepare_batch(input.events, now, false);  // a rewrite applies no delta
    mnemo_rewrite_req& req = rewrite->req;
    req.key = key_of(input.ref);
    req.now_us = now;
    req.has_expected_version = input.expected_version ? 1 : 0;
    req.expected_version = input.expected_version.value_or(0);
    req.events = rewrite->batch.views.data();
    req.n_events = rewrite->batch.views.size();
    req.event_limit = env.config->limits_for(input.ref.app).event_limit;
    req.remove_captured = env.backend.memories() ? 1 : 0;
    rewrite->captures =
        plan_captures(env.config->memory_for(input.ref.app), env.backend.memories(), rewrite->batch.events, now);
    rewrite->captures.attach(req);
    return std::make_shared<PendingWrite>(env, MNEMO_WRITE_OP(events_rewrite), rewrite, &rewrite->req,
                                          [](storage::Collected& result) {
                                              std::string body;
                                              JsonWriter(body)
                                                  .begin_object()
                                                  .field("version", result.rewrite.version)
                                                  .field("replaced", result.rewrite.replaced)
                                                  .end_object();
                                              return Outcome::ok(std::move(body));
                                          });
}

Outcome rewrite_events(const Env& env, RewriteInput& in) {
    // Not owned: the write runs and ends within this call.
    return begin_rewrite_events(env, std::shared_ptr<RewriteInput>(std::shared_ptr<void>(), &in))->run();
}

std::shared_ptr<PendingWrite> begin_rewind(const Env& env, RewindInput in) {
    struct Rewind {
        RewindInput in;
        mnemo_rewind_req req{};
    };
    auto rewind = std::make_shared<Rewind>();
    rewind->in = std::move(in);
    const RewindInput& input = rewind->in;
    mnemo_rewind_req& req = rewind->req;
    req.key = key_of(input.ref);
    req.now_us = env.clock.now_us();
    req.turns = input.turns;
    req.remove_captured = env.backend.memories() ? 1 : 0;
    req.has_expected_version = input.expected_version ? 1 : 0;
    req.expected_version = input.expected_version.value_or(0);
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(events_rewind), rewind, &rewind->req, [](storage::Collected& result) {
            std::string body;
            JsonWriter w(body);
            w.begin_object()
                .field("rewound_count", result.rewind.rewound)
                .field("turns_undone", result.rewind.turns_undone)
                .key("target_text");
            auto text = result.events.empty() ? std::nullopt : target_text_of(result.events.front());
            if (text) {
                w.string(*text);
            } else {
                w.null();
            }
            w.field("version", result.rewind.version).end_object();
            return Outcome::ok(std::move(body));
        });
}

Outcome rewind(const Env& env, const RewindInput& in) {
    return begin_rewind(env, in)->run();
}

}  // namespace mnemo::core
