// named_results.h -- the typed results of mnemo_sink (ABI 3) as named
// numbers, for the backend fixtures of unit_memory, unit_sqlite and
// unit_mysql, whose tests compare results by name ("version", "expired").
// Each result is recorded under the field names of its struct; has_more and
// a sweep's more only when set, as their absence is what tests check.
// lane_session and finalize_pending hand their session to the fixture's own
// session callback first.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>

namespace mnemo::test_results {

using Record = void (*)(void* ctx, const char* name, int64_t value);
using Session = void (*)(void* ctx, const mnemo_session* session);

template <Record record, Session session>
void add_named_results(mnemo_sink& sink) {
    sink.lane_session = [](void* ctx, const mnemo_session* s, int64_t visible_events) {
        session(ctx, s);
        record(ctx, "session_events", visible_events);
    };
    sink.finalize_pending = [](void* ctx, const mnemo_session* s, int reason, int64_t failed_attempts) {
        session(ctx, s);
        record(ctx, "finalize_reason", reason);
        record(ctx, "finalize_attempts", failed_attempts);
    };
    sink.search_hit = [](void* ctx, int64_t seq) { record(ctx, "hit", seq); };
    sink.has_more = [](void* ctx) { record(ctx, "has_more", 1); };
    sink.version = [](void* ctx, int64_t version) { record(ctx, "version", version); };
    sink.rewritten = [](void* ctx, const mnemo_rewrite_result* r) {
        record(ctx, "version", r->version);
        record(ctx, "replaced", r->replaced);
    };
    sink.rewound = [](void* ctx, const mnemo_rewind_result* r) {
        record(ctx, "version", r->version);
        record(ctx, "rewound_count", r->rewound);
        record(ctx, "turns_undone", r->turns_undone);
    };
    sink.purged = [](void* ctx, const mnemo_purge_result* r) {
        record(ctx, "sessions", r->sessions);
        record(ctx, "events", r->events);
        record(ctx, "summaries", r->summaries);
        record(ctx, "tracks", r->tracks);
        record(ctx, "lanes", r->lanes);
        record(ctx, "state_keys", r->state_keys);
    };
    sink.stats = [](void* ctx, const mnemo_stats_result* r) {
        record(ctx, "sessions", r->sessions);
        record(ctx, "events", r->events);
        record(ctx, "lanes", r->lanes);
    };
    sink.recovered = [](void* ctx, const mnemo_recover_result* r) {
        record(ctx, "resume_pending", r->resume_pending);
        record(ctx, "suspended", r->suspended);
    };
    sink.swept = [](void* ctx, const mnemo_sweep_result* r) {
        record(ctx, "expired", r->expired);
        record(ctx, "state_scopes", r->state_scopes);
        record(ctx, "purged_sessions", r->purged_sessions);
        record(ctx, "purged_events", r->purged_events);
        record(ctx, "pruned_lanes", r->pruned_lanes);
        if (r->more) record(ctx, "more", 1);
        if (r->skipped) record(ctx, "skipped", 1);
    };
    sink.finalized = [](void* ctx, const mnemo_finalize_result* r) {
        for (size_t i = 0; i < r->n_outcomes; ++i) record(ctx, "outcome", r->outcomes[i]);
        record(ctx, "finalized", r->finalized);
    };
}

}  // namespace mnemo::test_results
