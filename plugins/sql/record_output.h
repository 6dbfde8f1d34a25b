// record_output.h -- export rows as mnemo_record's. RecordOutput is an Output
// that turns the rows the row functions emit (emit_session_row, emit_scope,
// emit_events, emit_lane_row...) into records of the item being walked: the
// caller sets the owner key, the state scope's expiry or the track before
// emitting its rows. RecordBuffer keeps deep copies of records for a backend
// whose read may be run again from the start (a retried transaction), and
// hands them to the host's sink only once the read succeeded.
#pragma once

#include "output.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

class RecordOutput final : public Output {
public:
    explicit RecordOutput(const mnemo_record_sink& sink) : sink_(sink) {}

    // The owner of the rows emitted next (copied); user/session_id "" when not theirs.
    void set_owner(mnemo_str app, mnemo_str user, mnemo_str session_id);
    void set_scope_expiry(int64_t expires_at_us) { expires_at_us_ = expires_at_us; }
    void set_track(mnemo_str track) { track_.assign(track.ptr ? track.ptr : "", track.ptr ? track.len : 0); }

    void session(const mnemo_session& session) override;
    void state(int scope, mnemo_str key, mnemo_str value_json) override;
    void event(const mnemo_event& event) override;
    void summary(const mnemo_summary& summary) override;
    void track(const mnemo_track_event& track) override;
    void lane(const mnemo_lane& lane) override;
    void lane_session(const mnemo_session& session, int64_t visible_events) override;
    void finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) override;
    void result(const Result& result) override;

private:
    mnemo_record base(int kind) const;
    void send(const mnemo_record& record) const;
    const mnemo_record_sink& sink_;
    std::string app_, user_, session_id_, track_;
    int64_t expires_at_us_ = 0;
};

class RecordBuffer {
public:
    RecordBuffer();
    // A sink whose records (and more()) are copied into this buffer.
    const mnemo_record_sink& sink() const { return sink_; }
    void clear();
    void replay(const mnemo_record_sink& target) const;

private:
    // One record with its strings and structs copied.
    struct Owned {
        int kind = 0, scope = 0;
        int64_t expires_at_us = 0;
        std::string app, user, session_id, state_key, value_json, track;
        std::optional<OwnedRow<mnemo_session, 6>> session;
        std::optional<OwnedRow<mnemo_event, 11>> event;
        std::optional<OwnedRow<mnemo_summary, 3>> summary;
        std::optional<OwnedRow<mnemo_track_event, 1>> track_event;
        std::optional<OwnedRow<mnemo_lane, 8>> lane;
        std::optional<OwnedRow<mnemo_memory, 9>> memory;
        std::optional<std::vector<float>> vector;  // the memory's, when it holds one
    };
    static void on_record(void* ctx, const mnemo_record* record);
    static void on_more(void* ctx);
    mnemo_record_sink sink_;
    std::vector<Owned> records_;
    bool more_ = false;
};

}  // namespace mnemo::sqlcore
