#include "scripting/summary_trigger.h"

namespace mnemo::scripting {

bool trigger_met(const config::SummaryTrigger& trigger, const TriggerStats& stats) {
    int given = 0, met = 0;
    auto check = [&](bool present, bool reached) {
        if (!present) return;
        ++given;
        if (reached) ++met;
    };
    check(trigger.events.has_value(), trigger.events && stats.events_since_summary >= *trigger.events);
    check(trigger.tokens.has_value(), trigger.tokens && stats.tokens_since_summary >= *trigger.tokens);
    check(trigger.idle_us.has_value(),
          trigger.idle_us && stats.seconds_since_last_event * 1e6 >= static_cast<double>(*trigger.idle_us));
    if (given == 0) return false;
    return trigger.any ? met > 0 : met == given;
}

TriggerStats TriggerTracker::record(const std::string& session_key, int64_t events, int64_t tokens, int64_t now_us) {
    if (progress_.size() >= kMaxTracked && progress_.find(session_key) == progress_.end()) progress_.clear();
    auto [it, fresh] = progress_.try_emplace(session_key);
    Progress& p = it->second;
    TriggerStats stats;
    if (fresh) p.since_us = now_us;
    if (!fresh && p.last_event_us != 0)
        stats.seconds_since_last_event = static_cast<double>(now_us - p.last_event_us) / 1e6;
    p.events += events;
    p.tokens += tokens;
    p.last_event_us = now_us;
    stats.events_since_summary = p.events;
    stats.tokens_since_summary = p.tokens;
    stats.seconds_since_summary = static_cast<double>(now_us - p.since_us) / 1e6;
    return stats;
}

void TriggerTracker::fired(const std::string& session_key, int64_t now_us) {
    auto it = progress_.find(session_key);
    if (it == progress_.end()) return;
    it->second.events = 0;
    it->second.tokens = 0;
    it->second.since_us = now_us;
}

}  // namespace mnemo::scripting
