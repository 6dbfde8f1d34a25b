// record_buffer.h -- export records kept for a backend whose read may be run
// again from the start (a retried transaction): RecordBuffer keeps deep
// copies of the records and hands them to the host's sink only once the read
// succeeded.
#pragma once

#include "output.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

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
