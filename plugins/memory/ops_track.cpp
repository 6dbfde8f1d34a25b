// Track events: side streams of a session with their own seq per track, and
// the list of a session's tracks.
#include "emit.h"
#include "errors.h"
#include "ops.h"

#include <algorithm>
#include <mutex>

namespace mnemo::memory {

int track_append(mnemo_backend* backend, const mnemo_track_append_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    auto track = ref.session->tracks.find(view(req->track));
    if (track == ref.session->tracks.end()) track = ref.session->tracks.emplace(copy(req->track), TrackRec{}).first;
    TrackRec& rec = track->second;
    rec.events.push_back(TrackEventRec{++rec.last_seq, copy(req->payload_json), req->timestamp_us});
    // A track write keeps the session alive but is not a change of the session itself.
    touch_session(store, ref, req->now_us, false);
    emit_track(sink, rec.events.back());
    return MNEMO_OK;
}

int track_list(mnemo_backend* backend, const mnemo_track_list_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    auto track = ref.session->tracks.find(view(req->track));
    if (track == ref.session->tracks.end()) return MNEMO_OK;
    const auto& events = track->second.events;
    auto it = std::upper_bound(events.begin(), events.end(), req->after_seq,
                               [](int64_t seq, const TrackEventRec& e) { return seq < e.seq; });
    for (int64_t sent = 0; it != events.end() && (req->limit <= 0 || sent < req->limit); ++it, ++sent)
        emit_track(sink, *it);
    return MNEMO_OK;
}

int session_tracks(mnemo_backend* backend, const mnemo_session_tracks_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    if (req->limit < 1)
        return fail(err, MNEMO_E_INVALID, "track name list limit is %lld; give at least 1",
                    static_cast<long long>(req->limit));
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    const auto& tracks = ref.session->tracks;
    auto it = req->after_track.ptr ? tracks.upper_bound(view(req->after_track)) : tracks.begin();
    for (int64_t sent = 0; it != tracks.end() && sent < req->limit; ++it) {
        const auto& events = it->second.events;
        if (events.empty()) continue;
        mnemo_track_info row{out(it->first), static_cast<int64_t>(events.size()), events.back().seq,
                             events.back().timestamp_us};
        emit_result<&mnemo_sink::track_info>(sink, &row);
        ++sent;
    }
    return MNEMO_OK;
}

}  // namespace mnemo::memory
