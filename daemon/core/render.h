/*
 * core/render.h -- the JSON shapes of docs/api.md's objects.
 *
 * Owns how a Session, an Event, a Summary and a track event look on the
 * wire. Raw payloads are spliced in byte for byte.
 */
#pragma once

#include "core/json_writer.h"
#include "storage/rows.h"

#include <functional>
#include <string>
#include <vector>

namespace mnemo::core {

// state_json: the merged state object to show, or null for list rows (no "state" key).
void write_session(JsonWriter& w, const storage::SessionRow& s, const std::string* state_json);
void write_event(JsonWriter& w, const mnemo_event& e);
// The same bytes through the writer's generic calls: write_event() takes this
// path for events with a string to escape. Named for the test that holds the
// two paths to one output.
void write_event_by_writer(JsonWriter& w, const mnemo_event& e);
void write_event(JsonWriter& w, const storage::EventRow& e);

// Renders events as a storage read delivers them, once, straight into the
// answer's body. `open` writes what precedes the array (ending with its key)
// and runs at the first event, or at finish when there is none: a read hands
// its other rows (a session, its state) before its events, so the head can
// show them. When those rows have not come yet, `open` returns false without
// writing; the events are then rendered aside and spliced in at finish.
class EventArrayRenderer {
public:
    using Open = std::function<bool(JsonWriter& w)>;

    explicit EventArrayRenderer(Open open) : open_(std::move(open)) {}
    EventArrayRenderer(const EventArrayRenderer&) = delete;
    EventArrayRenderer& operator=(const EventArrayRenderer&) = delete;

    void attach(storage::Collector& collector);
    // Closes the array (opening the body first if no event did); the caller
    // writes the rest of the body with writer(). False: `open` still could not run.
    bool finish();
    JsonWriter& writer() { return writer_; }
    std::string take() { return std::move(body_); }
    int64_t count() const { return count_; }
    int64_t last_seq() const { return last_seq_; }

private:
    void add(const mnemo_event& event);

    Open open_;
    std::string body_;
    JsonWriter writer_{body_};
    std::string aside_;  // "[...]" of events that came before `open` could run
    JsonWriter aside_writer_{aside_};
    bool opened_ = false;
    bool rendering_aside_ = false;
    int64_t count_ = 0;
    int64_t last_seq_ = 0;
};
void write_summary(JsonWriter& w, const storage::SummaryRow& s);
void write_usage(JsonWriter& w, const mnemo_usage& u);
void write_timestamp(JsonWriter& w, int64_t unix_us);  // null for 0

}  // namespace mnemo::core
