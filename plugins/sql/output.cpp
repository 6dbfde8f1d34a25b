#include "output.h"

namespace mnemo::sqlcore {
namespace {

mnemo_str str_of(const std::string& s) {
    return mnemo_str{s.data(), s.size()};
}
std::string copy_of(mnemo_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

}  // namespace

void SinkOutput::session(const mnemo_session& session) {
    if (sink_ && sink_->session) sink_->session(sink_->ctx, &session);
}
void SinkOutput::state(int scope, mnemo_str key, mnemo_str value_json) {
    if (sink_ && sink_->state) sink_->state(sink_->ctx, scope, key, value_json);
}
void SinkOutput::event(const mnemo_event& event) {
    if (sink_ && sink_->event) sink_->event(sink_->ctx, &event);
}
void SinkOutput::summary(const mnemo_summary& summary) {
    if (sink_ && sink_->summary) sink_->summary(sink_->ctx, &summary);
}
void SinkOutput::track(const mnemo_track_event& track) {
    if (sink_ && sink_->track) sink_->track(sink_->ctx, &track);
}
void SinkOutput::lane(const mnemo_lane& lane) {
    if (sink_ && sink_->lane) sink_->lane(sink_->ctx, &lane);
}
void SinkOutput::lane_session(const mnemo_session& session, int64_t visible_events) {
    if (sink_ && sink_->lane_session) sink_->lane_session(sink_->ctx, &session, visible_events);
}
void SinkOutput::finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) {
    if (sink_ && sink_->finalize_pending) sink_->finalize_pending(sink_->ctx, &session, reason, failed_attempts);
}

namespace {

// Calls the sink's typed callback Member with args, unless it is NULL.
template <auto Member, typename... Args>
void send(const mnemo_sink& sink, Args... args) {
    if (sink.*Member) (sink.*Member)(sink.ctx, args...);
}

struct ResultToSink {
    const mnemo_sink& sink;
    void operator()(const HasMore&) const { send<&mnemo_sink::has_more>(sink); }
    void operator()(const Version& v) const { send<&mnemo_sink::version>(sink, v.version); }
    void operator()(const SearchHit& hit) const { send<&mnemo_sink::search_hit>(sink, hit.seq); }
    void operator()(const mnemo_rewrite_result& r) const { send<&mnemo_sink::rewritten>(sink, &r); }
    void operator()(const mnemo_rewind_result& r) const { send<&mnemo_sink::rewound>(sink, &r); }
    void operator()(const mnemo_purge_result& r) const { send<&mnemo_sink::purged>(sink, &r); }
    void operator()(const mnemo_stats_result& r) const { send<&mnemo_sink::stats>(sink, &r); }
    void operator()(const mnemo_recover_result& r) const { send<&mnemo_sink::recovered>(sink, &r); }
    void operator()(const mnemo_sweep_result& r) const { send<&mnemo_sink::swept>(sink, &r); }
    void operator()(const Finalized& f) const {
        const mnemo_finalize_result r{f.finalized, f.outcomes.empty() ? nullptr : f.outcomes.data(), f.outcomes.size()};
        send<&mnemo_sink::finalized>(sink, &r);
    }
    void operator()(const MemoryKey& k) const { send<&mnemo_sink::memory_key>(sink, k.key); }
    void operator()(const mnemo_memory_feed_result& r) const { send<&mnemo_sink::memory_feed>(sink, &r); }
    void operator()(const MemoryEmbedded& e) const { send<&mnemo_sink::memory_embedded>(sink, e.stored); }
    void operator()(const mnemo_memory_count_result& r) const { send<&mnemo_sink::memory_count>(sink, &r); }
};

}  // namespace

void SinkOutput::result(const Result& result) {
    if (sink_) std::visit(ResultToSink{*sink_}, result);
}

void SinkOutput::memory(const mnemo_memory& memory, const MemoryVia& via) {
    if (!sink_) return;
    switch (via.kind) {
        case MemoryVia::Row:
            return send<&mnemo_sink::memory>(*sink_, &memory);
        case MemoryVia::Written:
            return send<&mnemo_sink::memory_written>(*sink_, via.index, &memory, via.created);
        case MemoryVia::Hit:
            return send<&mnemo_sink::memory_hit>(*sink_, &memory, via.relevance);
    }
}

void SinkOutput::activity(const mnemo_activity& activity) {
    if (sink_) send<&mnemo_sink::activity>(*sink_, &activity);
}

void SinkOutput::track_info(const mnemo_track_info& track) {
    if (sink_) send<&mnemo_sink::track_info>(*sink_, &track);
}

void RecordedOutput::session(const mnemo_session& session) {
    rows_.emplace_back(std::in_place_index<0>, session, kSessionStrings);
}
void RecordedOutput::state(int scope, mnemo_str key, mnemo_str value_json) {
    rows_.emplace_back(StateRow{scope, copy_of(key), copy_of(value_json)});
}
void RecordedOutput::event(const mnemo_event& event) {
    rows_.emplace_back(std::in_place_index<2>, event, kEventStrings);
}
void RecordedOutput::summary(const mnemo_summary& summary) {
    rows_.emplace_back(std::in_place_index<3>, summary, kSummaryStrings);
}
void RecordedOutput::track(const mnemo_track_event& track) {
    rows_.emplace_back(std::in_place_index<4>, track, kTrackStrings);
}
void RecordedOutput::lane(const mnemo_lane& lane) {
    rows_.emplace_back(std::in_place_index<6>, lane, kLaneStrings);
}
void RecordedOutput::lane_session(const mnemo_session& session, int64_t visible_events) {
    rows_.emplace_back(SessionWith{{session, kSessionStrings}, false, 0, visible_events});
}
void RecordedOutput::finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) {
    rows_.emplace_back(SessionWith{{session, kSessionStrings}, true, reason, failed_attempts});
}
void RecordedOutput::result(const Result& result) {
    rows_.emplace_back(std::in_place_index<5>, result);
}
void RecordedOutput::memory(const mnemo_memory& memory, const MemoryVia& via) {
    const mnemo_vector& v = memory.vector;
    rows_.emplace_back(MemoryWith{{memory, kMemoryStrings},
                                  v.values ? std::vector<float>(v.values, v.values + v.dims) : std::vector<float>(),
                                  v.values != nullptr,
                                  via});
}
void RecordedOutput::activity(const mnemo_activity& activity) {
    rows_.emplace_back(std::in_place_index<9>, activity, kActivityStrings);
}
void RecordedOutput::track_info(const mnemo_track_info& track) {
    rows_.emplace_back(std::in_place_index<10>, track, kTrackInfoStrings);
}

void RecordedOutput::replay(Output& target) const {
    for (const Row& row : rows_) {
        switch (row.index()) {
            case 0:
                target.session(std::get<0>(row).view());
                break;
            case 1:
                target.state(std::get<1>(row).scope, str_of(std::get<1>(row).key), str_of(std::get<1>(row).value));
                break;
            case 2:
                target.event(std::get<2>(row).view());
                break;
            case 3:
                target.summary(std::get<3>(row).view());
                break;
            case 4:
                target.track(std::get<4>(row).view());
                break;
            case 5:
                target.result(std::get<5>(row));
                break;
            case 6:
                target.lane(std::get<6>(row).view());
                break;
            case 8: {
                const MemoryWith& with = std::get<8>(row);
                mnemo_memory memory = with.memory.view();
                memory.vector =
                    with.has_vector ? mnemo_vector{with.vector.data(), with.vector.size()} : mnemo_vector{nullptr, 0};
                target.memory(memory, with.via);
                break;
            }
            case 9:
                target.activity(std::get<9>(row).view());
                break;
            case 10:
                target.track_info(std::get<10>(row).view());
                break;
            default: {
                const SessionWith& with = std::get<7>(row);
                if (with.pending) {
                    target.finalize_pending(with.session.view(), with.reason, with.count);
                } else {
                    target.lane_session(with.session.view(), with.count);
                }
                break;
            }
        }
    }
}

}  // namespace mnemo::sqlcore
