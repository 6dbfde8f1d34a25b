/*
 * scripting/summary_trigger.h -- when an append asks for a summary (or an extraction).
 *
 * Owns summary.trigger (any/all of events, tokens and idle) and the loop's
 * per-session progress since the last summary it enqueued. The same shape
 * serves memory.extract_trigger: Extractions keeps a tracker of its own,
 * where "summary" reads "extraction". Automatic
 * triggers follow filter key "" (every event of the session). Counters live
 * in memory only: they start at zero when the daemon starts, and the table
 * is cleared when it holds more than kMaxTracked sessions.
 */
#pragma once

#include "config/config.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace mnemo::scripting {

struct TriggerStats {
    int64_t events_since_summary = 0;
    int64_t tokens_since_summary = 0;
    double seconds_since_last_event = 0;  // the pause before this append (0 when unknown)
    double seconds_since_summary = 0;     // since the last enqueued summary, else since first seen
};

// idle: the pause before this append reached summary.trigger.idle.
bool trigger_met(const config::SummaryTrigger& trigger, const TriggerStats& stats);

class TriggerTracker {
public:
    static constexpr size_t kMaxTracked = 100000;
    // Counts an append of `events` events carrying `tokens` tokens at now_us; the stats after it.
    TriggerStats record(const std::string& session_key, int64_t events, int64_t tokens, int64_t now_us);
    // A summary (extraction) was enqueued: counting starts again.
    void fired(const std::string& session_key, int64_t now_us);

private:
    struct Progress {
        int64_t events = 0, tokens = 0;
        int64_t last_event_us = 0, since_us = 0;
    };
    std::unordered_map<std::string, Progress> progress_;
};

}  // namespace mnemo::scripting
