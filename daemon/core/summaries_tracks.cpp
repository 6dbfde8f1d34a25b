// Client-posted summaries, summary lists, track events, a session's tracks,
// storage stats.
#include "core/ids.h"
#include "core/json_writer.h"
#include "core/pending_write.h"
#include "core/render.h"
#include "core/service_util.h"

#include <fmt/format.h>

namespace mnemo::core {

std::shared_ptr<PendingWrite> begin_post_summary(const Env& env, PostSummaryInput in) {
    struct Post {
        PostSummaryInput in;
        mnemo_summary_put_req req{};
    };
    auto post = std::make_shared<Post>();
    post->in = std::move(in);
    mnemo_summary_put_req& req = post->req;
    req.key = key_of(post->in.ref);
    req.now_us = env.clock.now_us();
    req.filter_key = storage::str(post->in.filter_key);
    req.text = storage::str(post->in.text);
    req.up_to_seq = post->in.up_to_seq;
    req.source = storage::str("client");
    req.events_covered = -1;
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(summary_put), post, &post->req, [](storage::Collected& result) {
            if (result.summaries.empty())
                return Outcome::fail(Error{ErrorCode::Internal, "storage returned no summary", "{}"});
            std::string body;
            JsonWriter w(body);
            write_summary(w, result.summaries.front());
            return Outcome::ok(std::move(body), Success::Created);
        });
}

Outcome list_summaries(const Env& env, const SessionRef& ref) {
    mnemo_summary_list_req req{key_of(ref), env.clock.now_us()};
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().summary_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("summaries").begin_array();
    for (const auto& summary : collector.result().summaries) write_summary(w, summary);
    w.end_array().end_object();
    return Outcome::ok(std::move(body));
}

std::shared_ptr<PendingWrite> begin_append_track(const Env& env, TrackAppendInput in) {
    struct Append {
        TrackAppendInput in;
        mnemo_track_append_req req{};
    };
    auto append = std::make_shared<Append>();
    append->in = std::move(in);
    const TrackAppendInput& input = append->in;
    int64_t now = env.clock.now_us();
    append->req = mnemo_track_append_req{key_of(input.ref), storage::str(input.track), now,
                                         storage::str(input.payload_json), input.timestamp_us.value_or(now)};
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(track_append), append, &append->req, [](storage::Collected& result) {
            const auto& tracks = result.tracks;
            if (tracks.empty())
                return Outcome::fail(Error{ErrorCode::Internal, "storage returned no track event", "{}"});
            std::string body;
            JsonWriter w(body);
            w.begin_object().field("seq", tracks.front().seq).key("timestamp");
            write_timestamp(w, tracks.front().timestamp_us);
            w.end_object();
            return Outcome::ok(std::move(body), Success::Created);
        });
}

Outcome list_track(const Env& env, const TrackListInput& in) {
    mnemo_track_list_req req{key_of(in.ref), storage::str(in.track), env.clock.now_us(), in.after_seq, in.limit};
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().track_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("events").begin_array();
    for (const auto& track : collector.result().tracks) {
        w.begin_object().field("seq", track.seq).raw_field("payload", track.payload_json).key("timestamp");
        write_timestamp(w, track.timestamp_us);
        w.end_object();
    }
    w.end_array().end_object();
    return Outcome::ok(std::move(body));
}

Outcome list_session_tracks(const Env& env, const SessionTracksInput& in) {
    if (!env.backend.track_names()) {
        return Outcome::fail(invalid(fmt::format(
            "the storage plugin '{}' cannot list a session's tracks (session_tracks); rebuild it against this "
            "mnemod's mnemo_plugin.h, or use a shipped plugin (memory, sqlite, mysql, postgres)",
            env.backend.descriptor().name)));
    }
    if (in.page_token && !valid_name(*in.page_token))
        return Outcome::fail(invalid(fmt::format("page_token '{}' is not a token this API returned", *in.page_token)));
    mnemo_session_tracks_req req{key_of(in.ref), env.clock.now_us(),
                                 in.page_token ? storage::str(*in.page_token) : storage::absent(),
                                 in.limit + 1};  // one more tells whether a next page exists
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().session_tracks(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    return Outcome::ok(page_json(
        "tracks", collector.result().track_info, in.limit,
        [](JsonWriter& w, const storage::TrackInfoRow& row) {
            w.begin_object().field("track", row.track).field("events", row.events).field("last_seq", row.last_seq);
            w.key("last_timestamp");
            write_timestamp(w, row.last_timestamp_us);
            w.end_object();
        },
        [](const storage::TrackInfoRow& last) { return last.track; }));
}

StorageStats storage_stats(const Env& env) {
    mnemo_stats_req req{env.clock.now_us()};
    storage::Collector collector;
    StorageStats stats;
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().stats(env.backend.handle(), &req, collector.sink(), err);
        })) {
        stats.error = from_storage(*failure);
        return stats;
    }
    const auto& result = collector.result();
    stats.sessions = result.stats.sessions;
    stats.events = result.stats.events;
    stats.lanes = result.stats.lanes;
    return stats;
}

std::optional<Error> ping(const Env& env) {
    if (auto failure =
            env.backend.call([&](mnemo_error* err) { return env.backend.ops().ping(env.backend.handle(), err); })) {
        return from_storage(*failure);
    }
    return std::nullopt;
}

}  // namespace mnemo::core
