/*
 * core/render.h -- the JSON shapes of docs/api.md's objects.
 *
 * Owns how a Session, an Event, a Summary and a track event look on the
 * wire. Raw payloads are spliced in byte for byte.
 */
#pragma once

#include "core/json_writer.h"
#include "storage/rows.h"

#include <string>
#include <vector>

namespace mnemo::core {

// state_json: the merged state object to show, or null for list rows (no "state" key).
void write_session(JsonWriter& w, const storage::SessionRow& s, const std::string* state_json);
void write_event(JsonWriter& w, const mnemo_event& e);
void write_event(JsonWriter& w, const storage::EventRow& e);

// Renders events into a JSON array as a storage read delivers them.
struct EventArrayRenderer {
    std::string json;  // "[...]" once finished
    JsonWriter writer{json};
    int64_t count = 0;
    int64_t last_seq = 0;

    EventArrayRenderer() { writer.begin_array(); }
    EventArrayRenderer(const EventArrayRenderer&) = delete;
    EventArrayRenderer& operator=(const EventArrayRenderer&) = delete;
    void attach(storage::Collector& collector);
    const std::string& finish() {
        writer.end_array();
        return json;
    }
};
void write_summary(JsonWriter& w, const storage::SummaryRow& s);
void write_usage(JsonWriter& w, const mnemo_usage& u);
void write_timestamp(JsonWriter& w, int64_t unix_us);  // null for 0

}  // namespace mnemo::core
