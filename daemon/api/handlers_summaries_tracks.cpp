// Summary and track routes.
#include "api/handlers.h"
#include "core/requests.h"

namespace mnemo::api::handlers {

void list_summaries(Api& api, CallPtr call) {
    api.run(call, [env = api.env(*call), ref = session_ref(*call)] { return core::list_summaries(env, ref); });
}

void post_summary(Api& api, CallPtr call) {
    core::PostSummaryInput in;
    in.ref = session_ref(*call);
    if (auto error = core::decode_post_summary(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_post_summary(api.env(*call), std::move(in)));
}

void append_track(Api& api, CallPtr call) {
    core::TrackAppendInput in;
    in.ref = session_ref(*call);
    in.track = call->params.get("track");
    if (auto error = core::decode_track_append(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_append_track(api.env(*call), std::move(in)));
}

void list_track(Api& api, CallPtr call) {
    core::TrackListInput in;
    in.ref = session_ref(*call);
    in.track = call->params.get("track");
    std::optional<int64_t> after_seq;
    std::optional<core::Error> error = call->query.limit(100, 1000, in.limit);
    if (!error) error = call->query.non_negative("after_seq", after_seq);
    if (error) return api.fail(*call, std::move(*error));
    in.after_seq = after_seq.value_or(0);
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_track(env, in); });
}

void list_session_tracks(Api& api, CallPtr call) {
    core::SessionTracksInput in;
    in.ref = session_ref(*call);
    if (auto error = call->query.limit(100, 1000, in.limit)) return api.fail(*call, std::move(*error));
    in.page_token = call->query.get("page_token");
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_session_tracks(env, in); });
}

}  // namespace mnemo::api::handlers
