#include "output.h"

namespace mnemo::sqlcore {
namespace {

const OwnedRow<mnemo_session, 6>::Fields kSessionStrings{&mnemo_session::app,       &mnemo_session::user,
                                                         &mnemo_session::id,        &mnemo_session::title,
                                                         &mnemo_session::parent_id, &mnemo_session::metadata_json};
const OwnedRow<mnemo_event, 11>::Fields kEventStrings{
    &mnemo_event::id,           &mnemo_event::invocation_id,    &mnemo_event::author,     &mnemo_event::role,
    &mnemo_event::content_json, &mnemo_event::state_delta_json, &mnemo_event::usage_json, &mnemo_event::tool_calls_json,
    &mnemo_event::media_json,   &mnemo_event::metadata_json,    &mnemo_event::filter_key};
const OwnedRow<mnemo_summary, 3>::Fields kSummaryStrings{&mnemo_summary::filter_key, &mnemo_summary::text,
                                                         &mnemo_summary::source};
const OwnedRow<mnemo_track_event, 1>::Fields kTrackStrings{&mnemo_track_event::payload_json};
const OwnedRow<mnemo_lane, 8>::Fields kLaneStrings{
    &mnemo_lane::app,      &mnemo_lane::lane,      &mnemo_lane::user,          &mnemo_lane::session_id,
    &mnemo_lane::platform, &mnemo_lane::chat_type, &mnemo_lane::resume_reason, &mnemo_lane::auto_reset_reason};

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
void SinkOutput::count(const char* name, int64_t value) {
    if (sink_ && sink_->count) sink_->count(sink_->ctx, name, value);
}
void SinkOutput::lane(const mnemo_lane& lane) {
    if (sink_ && sink_->lane) sink_->lane(sink_->ctx, &lane);
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
void RecordedOutput::count(const char* name, int64_t value) {
    rows_.emplace_back(CountRow{name, value});
}
void RecordedOutput::lane(const mnemo_lane& lane) {
    rows_.emplace_back(std::in_place_index<6>, lane, kLaneStrings);
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
                target.count(std::get<5>(row).name, std::get<5>(row).value);
                break;
            default:
                target.lane(std::get<6>(row).view());
                break;
        }
    }
}

}  // namespace mnemo::sqlcore
