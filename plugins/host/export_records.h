// export_records.h -- the rows of an export step as mnemo_record's, the one
// way both the memory backend and the SQL core make them: ExportRecords is a
// mnemo_sink whose rows (session, state, event, summary, track, lane) each
// become a record of the item being walked, handed to the host's record
// sink. The caller names the owner, the state scope's expiry or the track
// before emitting their rows; the owner is copied, so its strings may go
// once it is set. A memory step's rows go through send_memory_record.
// Header-only, like host_services.h.
#pragma once

#include "host_services.h"
#include "memory_values.h"

#include <cstdint>
#include <string>

namespace mnemo::host {

class ExportRecords {
public:
    explicit ExportRecords(const mnemo_record_sink& sink) : sink_(sink) {
        rows_.ctx = this;
        rows_.session = on_row<MNEMO_RECORD_SESSION, &mnemo_record::session>;
        rows_.state = [](void* ctx, int scope, mnemo_str key, mnemo_str value_json) {
            mnemo_record record = of(ctx).base(MNEMO_RECORD_STATE);
            record.scope = scope;
            record.state_key = key;
            record.value_json = value_json;
            record.expires_at_us = scope == MNEMO_SCOPE_SESSION ? 0 : of(ctx).expires_at_us_;
            of(ctx).send(record);
        };
        rows_.event = on_row<MNEMO_RECORD_EVENT, &mnemo_record::event>;
        rows_.summary = on_row<MNEMO_RECORD_SUMMARY, &mnemo_record::summary>;
        rows_.track = on_row<MNEMO_RECORD_TRACK, &mnemo_record::track_event>;
        rows_.lane = on_row<MNEMO_RECORD_LANE, &mnemo_record::lane>;
    }
    // rows() points into this object.
    ExportRecords(const ExportRecords&) = delete;
    ExportRecords& operator=(const ExportRecords&) = delete;

    // The sink to emit rows into; the kinds of row no record holds are dropped.
    const mnemo_sink* rows() const { return &rows_; }

    // The owner of the rows emitted next; user and session_id "" when not theirs.
    void set_owner(mnemo_str app, mnemo_str user, mnemo_str session_id) {
        app_ = detail::copy(app);
        user_ = detail::copy(user);
        session_id_ = detail::copy(session_id);
    }
    // The app or user scope's expiry, for its state records (a session's have none).
    void set_scope_expiry(int64_t expires_at_us) { expires_at_us_ = expires_at_us; }
    void set_track(mnemo_str track) { track_ = detail::copy(track); }

private:
    static ExportRecords& of(void* ctx) { return *static_cast<ExportRecords*>(ctx); }

    // A row the record of kind Kind points at through Member (a track's
    // record names its track too).
    template <int Kind, auto Member, typename Row>
    static void on_row(void* ctx, const Row* row) {
        mnemo_record record = of(ctx).base(Kind);
        record.*Member = row;
        if constexpr (Kind == MNEMO_RECORD_TRACK) record.track = detail::str(of(ctx).track_);
        of(ctx).send(record);
    }

    mnemo_record base(int kind) const {
        mnemo_record record{};
        record.kind = kind;
        record.key = mnemo_key{detail::str(app_), detail::str(user_), detail::str(session_id_)};
        return record;
    }
    void send(const mnemo_record& record) const {
        if (sink_.record) sink_.record(sink_.ctx, &record);
    }

    const mnemo_record_sink& sink_;
    mnemo_sink rows_{};
    std::string app_, user_, session_id_, track_;
    int64_t expires_at_us_ = 0;
};

// Hands a memory, its vector included, to the sink as a record of its own.
inline void send_memory_record(const mnemo_record_sink& sink, const MemoryValues& row) {
    const mnemo_memory memory = memory_view(row, true);
    mnemo_record record{};
    record.kind = MNEMO_RECORD_MEMORY;
    record.key = mnemo_key{memory.app, memory.user, mnemo_str{nullptr, 0}};
    record.memory = &memory;
    if (sink.record) sink.record(sink.ctx, &record);
}

}  // namespace mnemo::host
