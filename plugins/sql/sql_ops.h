// sql_ops.h -- the domain steps of the plugin table that the SQL core runs
// the same on every engine, each a function over one connection (db.h).
// The caller runs a write step inside its own transaction or savepoint, so
// any StoreError it throws undoes exactly its changes (and MNEMO_E_BUSY makes
// the backend run it again); a read step runs inside one read snapshot.
#pragma once

#include "db.h"
#include "output.h"
#include "recall_cache.h"

#include <optional>
#include <vector>

namespace mnemo::sqlcore {

struct AppendOutcome {
    int64_t version = 0;
    std::vector<int64_t> seqs, timestamps_us;
    int64_t evicted = 0;
    bool retried = false;
    bool created = false;
};

// Writes.
void session_create(Db& db, const mnemo_session_create_req& req, Output& out);
void session_delete(Db& db, const mnemo_session_delete_req& req, Output& out);
void user_purge(Db& db, const mnemo_user_purge_req& req, Output& out);
void lane_write(Db& db, const mnemo_lane_write_req& req, Output& out);
void lane_recover(Db& db, const mnemo_lane_recover_req& req, Output& out);
void sweep_step(Db& db, const mnemo_sweep_req& req, Output& out);
// The sweep step of a process that did not get the sweep lock: swept() with skipped = 1.
void sweep_skipped(Output& out);
// Lists pending finalizes; where the dialect claims them for this backend
// instance (Dialect::claim_finalize) it is a write, so two processes never
// list the same session.
void finalize_list(Db& db, const mnemo_finalize_list_req& req, Output& out);
void events_append(Db& db, const mnemo_append_req& req, AppendOutcome& outcome, Output& out);
void events_rewrite(Db& db, const mnemo_rewrite_req& req, Output& out);
void events_rewind(Db& db, const mnemo_rewind_req& req, Output& out);
void state_patch(Db& db, const mnemo_state_patch_req& req, Output& out);
void state_delete(Db& db, const mnemo_state_delete_req& req);
void summary_put(Db& db, const mnemo_summary_put_req& req, Output& out);
void session_extracted(Db& db, const mnemo_extracted_req& req);
void track_append(Db& db, const mnemo_track_append_req& req, Output& out);
void finalize_done(Db& db, const mnemo_finalize_done_req& req, Output& out);
void finalize_done_batch(Db& db, const mnemo_finalize_done_batch_req& req, Output& out);

// Reads.
void session_get(Db& db, const mnemo_session_get_req& req, Output& out);
void session_list(Db& db, const mnemo_session_list_req& req, Output& out);
void stats(Db& db, const mnemo_stats_req& req, Output& out);
void lane_get(Db& db, const mnemo_lane_get_req& req, Output& out);
void lane_list(Db& db, const mnemo_lane_list_req& req, Output& out);
void events_list(Db& db, const mnemo_events_list_req& req, Output& out);
void state_get(Db& db, const mnemo_state_get_req& req, Output& out);
void summary_list(Db& db, const mnemo_summary_list_req& req, Output& out);
void track_list(Db& db, const mnemo_track_list_req& req, Output& out);
void session_tracks(Db& db, const mnemo_session_tracks_req& req, Output& out);

// Export (a read; a backend whose read may run again buffers the records:
// RecordBuffer) and import (a write).
void export_step(Db& db, const mnemo_export_req& req, const mnemo_record_sink& sink);
void import_records(Db& db, const mnemo_import_req& req);

// Long-term memories (memory_rows.h). Writes:
void memory_write(Db& db, const mnemo_memory_write_req& req, Output& out);
void memory_patch(Db& db, const mnemo_memory_patch_req& req, Output& out);
void memory_delete(Db& db, const mnemo_memory_delete_req& req);
void memory_embed(Db& db, const mnemo_memory_embed_req& req, Output& out);
void memory_reembed(Db& db, const mnemo_memory_reembed_req& req, Output& out);
// Reads.
void memory_get(Db& db, const mnemo_memory_get_req& req, Output& out);
void memory_list(Db& db, const mnemo_memory_list_req& req, Output& out);
// cache: the store's packed postings for questions without a user (recall_cache.h).
void memory_search(Db& db, RecallCache& cache, const mnemo_memory_search_req& req, Output& out);
void memory_keys(Db& db, const mnemo_memory_keys_req& req, Output& out);
void memory_candidates(Db& db, const mnemo_memory_candidates_req& req, Output& out);
void memory_changes(Db& db, const mnemo_memory_changes_req& req, Output& out);
void memory_pending(Db& db, const mnemo_memory_pending_req& req, Output& out);
void memory_count(Db& db, const mnemo_memory_count_req& req, Output& out);

// The apps and users holding data (ops_activity.cpp); reads.
void app_list(Db& db, const mnemo_app_list_req& req, Output& out);
void user_list(Db& db, const mnemo_user_list_req& req, Output& out);

// The up_to_seq of the latest summary of filter_key (ptr NULL: ""), which is
// also emitted to out when out is set.
std::optional<int64_t> latest_summary(Db& db, int64_t sid, mnemo_str filter_key, Output* out);

}  // namespace mnemo::sqlcore
