// output.h -- where an operation's result rows go. Reads write straight into
// the host's mnemo_sink (SinkOutput). Writes may still be rolled back (the
// sqlite writer's group, a retried mysql transaction), so they record deep
// copies (RecordedOutput) that are replayed into the sink only after COMMIT.
#pragma once

#include "mnemo_plugin.h"

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mnemo::sqlcore {

// An operation's typed result (mnemo_sink's result callbacks), one
// alternative per callback; mnemo_plugin.h says which operation sends which.
struct HasMore {};
struct Version {
    int64_t version = 0;
};
struct SearchHit {
    int64_t seq = 0;
};
struct Finalized {
    int64_t finalized = 0;
    std::vector<int> outcomes;  // finalize_done_batch: one per item, in request order
};
struct MemoryEmbedded {
    int64_t stored = 0;
};
struct MemoryKey {
    int64_t key = 0;
};
using Result = std::variant<HasMore, Version, SearchHit, mnemo_rewrite_result, mnemo_rewind_result, mnemo_purge_result,
                            mnemo_stats_result, mnemo_recover_result, mnemo_sweep_result, Finalized, MemoryKey,
                            mnemo_memory_feed_result, MemoryEmbedded, mnemo_memory_count_result>;

// How a memory row reaches the sink: memory(), memory_written() with its
// item index and created flag, or memory_hit() with its relevance.
struct MemoryVia {
    enum Kind { Row, Written, Hit } kind = Row;
    size_t index = 0;
    int created = 0;
    double relevance = 0;
};

class Output {
public:
    virtual ~Output() = default;
    virtual void session(const mnemo_session& session) = 0;
    virtual void state(int scope, mnemo_str key, mnemo_str value_json) = 0;
    virtual void event(const mnemo_event& event) = 0;
    virtual void summary(const mnemo_summary& summary) = 0;
    virtual void track(const mnemo_track_event& track) = 0;
    virtual void lane(const mnemo_lane& lane) = 0;
    virtual void lane_session(const mnemo_session& session, int64_t visible_events) = 0;
    virtual void finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) = 0;
    virtual void result(const Result& result) = 0;
    // A long-term memory row; export records carry none, so by default it is dropped.
    virtual void memory(const mnemo_memory& /*memory*/, const MemoryVia& /*via*/) {}
    // An app of app_list or a user of user_list.
    virtual void activity(const mnemo_activity& activity) = 0;
    // A track of session_tracks with its counts.
    virtual void track_info(const mnemo_track_info& track) = 0;
};

// Forwards to a host sink; a NULL sink or callback drops that kind of row.
class SinkOutput final : public Output {
public:
    explicit SinkOutput(const mnemo_sink* sink) : sink_(sink) {}
    void session(const mnemo_session& session) override;
    void state(int scope, mnemo_str key, mnemo_str value_json) override;
    void event(const mnemo_event& event) override;
    void summary(const mnemo_summary& summary) override;
    void track(const mnemo_track_event& track) override;
    void lane(const mnemo_lane& lane) override;
    void lane_session(const mnemo_session& session, int64_t visible_events) override;
    void finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) override;
    void result(const Result& result) override;
    void memory(const mnemo_memory& memory, const MemoryVia& via) override;
    void activity(const mnemo_activity& activity) override;
    void track_info(const mnemo_track_info& track) override;

private:
    const mnemo_sink* sink_;
};

// An owned copy of one ABI struct: its plain fields as they were, its string
// fields (listed by member pointer) copied so "absent" stays apart from "".
template <typename T, size_t N>
class OwnedRow {
public:
    using Fields = std::array<mnemo_str T::*, N>;
    OwnedRow(const T& row, const Fields& fields) : plain_(row), fields_(&fields) {
        for (size_t i = 0; i < N; ++i) {
            const mnemo_str& field = row.*fields[i];
            if (field.ptr) strings_[i] = std::string(field.ptr, field.len);
        }
    }
    T view() const {
        T row = plain_;
        for (size_t i = 0; i < N; ++i)
            row.*(*fields_)[i] =
                strings_[i] ? mnemo_str{strings_[i]->data(), strings_[i]->size()} : mnemo_str{nullptr, 0};
        return row;
    }

private:
    T plain_;
    const Fields* fields_;
    std::array<std::optional<std::string>, N> strings_;
};

// The string fields of each row kind, which OwnedRow copies.
inline const OwnedRow<mnemo_session, 6>::Fields kSessionStrings{
    &mnemo_session::app,   &mnemo_session::user,      &mnemo_session::id,
    &mnemo_session::title, &mnemo_session::parent_id, &mnemo_session::metadata_json};
inline const OwnedRow<mnemo_event, 11>::Fields kEventStrings{
    &mnemo_event::id,           &mnemo_event::invocation_id,    &mnemo_event::author,     &mnemo_event::role,
    &mnemo_event::content_json, &mnemo_event::state_delta_json, &mnemo_event::usage_json, &mnemo_event::tool_calls_json,
    &mnemo_event::media_json,   &mnemo_event::metadata_json,    &mnemo_event::filter_key};
inline const OwnedRow<mnemo_summary, 3>::Fields kSummaryStrings{&mnemo_summary::filter_key, &mnemo_summary::text,
                                                                &mnemo_summary::source};
inline const OwnedRow<mnemo_track_event, 1>::Fields kTrackStrings{&mnemo_track_event::payload_json};
inline const OwnedRow<mnemo_lane, 8>::Fields kLaneStrings{
    &mnemo_lane::app,      &mnemo_lane::lane,      &mnemo_lane::user,          &mnemo_lane::session_id,
    &mnemo_lane::platform, &mnemo_lane::chat_type, &mnemo_lane::resume_reason, &mnemo_lane::auto_reset_reason};
inline const OwnedRow<mnemo_memory, 9>::Fields kMemoryStrings{
    &mnemo_memory::app,        &mnemo_memory::user,           &mnemo_memory::id,
    &mnemo_memory::name_space, &mnemo_memory::text,           &mnemo_memory::metadata_json,
    &mnemo_memory::session_id, &mnemo_memory::source_session, &mnemo_memory::embedding_model};
inline const OwnedRow<mnemo_activity, 1>::Fields kActivityStrings{&mnemo_activity::name};
inline const OwnedRow<mnemo_track_info, 1>::Fields kTrackInfoStrings{&mnemo_track_info::track};

class RecordedOutput final : public Output {
public:
    void session(const mnemo_session& session) override;
    void state(int scope, mnemo_str key, mnemo_str value_json) override;
    void event(const mnemo_event& event) override;
    void summary(const mnemo_summary& summary) override;
    void track(const mnemo_track_event& track) override;
    void lane(const mnemo_lane& lane) override;
    void lane_session(const mnemo_session& session, int64_t visible_events) override;
    void finalize_pending(const mnemo_session& session, int reason, int64_t failed_attempts) override;
    void result(const Result& result) override;
    void memory(const mnemo_memory& memory, const MemoryVia& via) override;
    void activity(const mnemo_activity& activity) override;
    void track_info(const mnemo_track_info& track) override;
    void replay(Output& target) const;
    void clear() { rows_.clear(); }

private:
    struct StateRow {
        int scope;
        std::string key, value;
    };
    // A session with the numbers lane_session or finalize_pending sends next to it.
    struct SessionWith {
        OwnedRow<mnemo_session, 6> session;
        bool pending;  // finalize_pending (reason, count); else lane_session (count)
        int reason;
        int64_t count;
    };
    // A memory with its vector copied, and how it is sent.
    struct MemoryWith {
        OwnedRow<mnemo_memory, 9> memory;
        std::vector<float> vector;
        bool has_vector;
        MemoryVia via;
    };
    using Row =
        std::variant<OwnedRow<mnemo_session, 6>, StateRow, OwnedRow<mnemo_event, 11>, OwnedRow<mnemo_summary, 3>,
                     OwnedRow<mnemo_track_event, 1>, Result, OwnedRow<mnemo_lane, 8>, SessionWith, MemoryWith,
                     OwnedRow<mnemo_activity, 1>, OwnedRow<mnemo_track_info, 1>>;
    std::vector<Row> rows_;
};

}  // namespace mnemo::sqlcore
