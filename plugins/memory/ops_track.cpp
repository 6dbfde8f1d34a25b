// Track events: side streams of a session with their own seq per track.
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

}  // namespace mnemo::memory
