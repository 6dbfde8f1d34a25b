#include "record_buffer.h"

#include "rules.h"

#include <cstring>

namespace mnemo::sqlcore {
namespace {

mnemo_str of(const std::string& s) {
    return mnemo_str{s.data(), s.size()};
}

}  // namespace

RecordBuffer::RecordBuffer() : sink_{this, on_record, on_more} {}

void RecordBuffer::clear() {
    records_.clear();
    more_ = false;
}

void RecordBuffer::on_record(void* ctx, const mnemo_record* r) {
    Owned owned;
    owned.kind = r->kind;
    owned.scope = r->scope;
    owned.expires_at_us = r->expires_at_us;
    owned.app = text(r->key.app);
    owned.user = text(r->key.user);
    owned.session_id = text(r->key.session_id);
    owned.state_key = text(r->state_key);
    owned.value_json = text(r->value_json);
    owned.track = text(r->track);
    if (r->session) owned.session.emplace(*r->session, kSessionStrings);
    if (r->event) owned.event.emplace(*r->event, kEventStrings);
    if (r->summary) owned.summary.emplace(*r->summary, kSummaryStrings);
    if (r->track_event) owned.track_event.emplace(*r->track_event, kTrackStrings);
    if (r->lane) owned.lane.emplace(*r->lane, kLaneStrings);
    if (r->memory) {
        owned.memory.emplace(*r->memory, kMemoryStrings);
        const mnemo_vector& v = r->memory->vector;
        if (v.values) owned.vector.emplace(v.values, v.values + v.dims);
    }
    static_cast<RecordBuffer*>(ctx)->records_.push_back(std::move(owned));
}

void RecordBuffer::on_more(void* ctx) {
    static_cast<RecordBuffer*>(ctx)->more_ = true;
}

void RecordBuffer::replay(const mnemo_record_sink& target) const {
    for (const Owned& owned : records_) {
        mnemo_session session = owned.session ? owned.session->view() : mnemo_session{};
        mnemo_event event = owned.event ? owned.event->view() : mnemo_event{};
        mnemo_summary summary = owned.summary ? owned.summary->view() : mnemo_summary{};
        mnemo_track_event track = owned.track_event ? owned.track_event->view() : mnemo_track_event{};
        mnemo_lane lane = owned.lane ? owned.lane->view() : mnemo_lane{};
        mnemo_memory memory = owned.memory ? owned.memory->view() : mnemo_memory{};
        memory.vector = owned.vector ? mnemo_vector{owned.vector->data(), owned.vector->size()} : mnemo_vector{};
        mnemo_record record{};
        record.kind = owned.kind;
        record.key = mnemo_key{of(owned.app), of(owned.user), of(owned.session_id)};
        record.session = owned.session ? &session : nullptr;
        record.event = owned.event ? &event : nullptr;
        record.scope = owned.scope;
        record.state_key = of(owned.state_key);
        record.value_json = of(owned.value_json);
        record.expires_at_us = owned.expires_at_us;
        record.summary = owned.summary ? &summary : nullptr;
        record.track = of(owned.track);
        record.track_event = owned.track_event ? &track : nullptr;
        record.lane = owned.lane ? &lane : nullptr;
        record.memory = owned.memory ? &memory : nullptr;
        if (target.record) target.record(target.ctx, &record);
    }
    if (more_ && target.more) target.more(target.ctx);
}

}  // namespace mnemo::sqlcore
