// ops.h -- the domain steps of the ABI, each a function over one connection.
// Write steps run inside their own READ COMMITTED transaction, so any
// StoreError they throw undoes exactly their changes (and MNEMO_E_BUSY makes
// the store run them again from the start); read steps run inside one
// REPEATABLE READ snapshot.
#pragma once

#include "connection.h"
#include "output.h"

#include <optional>
#include <vector>

namespace mnemo::mysql {

struct AppendOutcome {
    int64_t version = 0;
    std::vector<int64_t> seqs, timestamps_us;
    int64_t evicted = 0;
    bool retried = false;
    bool created = false;
};

// Writes.
void session_create(Conn& conn, const mnemo_session_create_req& req, Output& out);
void session_delete(Conn& conn, const mnemo_session_delete_req& req, Output& out);
void user_purge(Conn& conn, const mnemo_user_purge_req& req, Output& out);
void events_append(Conn& conn, const mnemo_append_req& req, AppendOutcome& outcome, Output& out);
void events_rewrite(Conn& conn, const mnemo_rewrite_req& req, Output& out);
void events_rewind(Conn& conn, const mnemo_rewind_req& req, Output& out);
void state_patch(Conn& conn, const mnemo_state_patch_req& req, Output& out);
void state_delete(Conn& conn, const mnemo_state_delete_req& req);
void summary_put(Conn& conn, const mnemo_summary_put_req& req, Output& out);
void track_append(Conn& conn, const mnemo_track_append_req& req, Output& out);
void lane_write(Conn& conn, const mnemo_lane_write_req& req, Output& out);
void lane_recover(Conn& conn, const mnemo_lane_recover_req& req, Output& out);
void sweep_step(Conn& conn, const mnemo_sweep_req& req, Output& out);
void finalize_done(Conn& conn, const mnemo_finalize_done_req& req, Output& out);
void finalize_done_batch(Conn& conn, const mnemo_finalize_done_batch_req& req, Output& out);
// Lists pending finalizes and claims them for this backend instance (see
// ops_lifecycle.cpp): a write, so two processes never list the same session.
void finalize_list(Conn& conn, const mnemo_finalize_list_req& req, Output& out);
// The sweep step of a process that did not get the sweep lock: all counts 0.
void sweep_skipped(Output& out);

// Reads.
void session_get(Conn& conn, const mnemo_session_get_req& req, Output& out);
void session_list(Conn& conn, const mnemo_session_list_req& req, Output& out);
void events_list(Conn& conn, const mnemo_events_list_req& req, Output& out);
void state_get(Conn& conn, const mnemo_state_get_req& req, Output& out);
void summary_list(Conn& conn, const mnemo_summary_list_req& req, Output& out);
void track_list(Conn& conn, const mnemo_track_list_req& req, Output& out);
void stats(Conn& conn, const mnemo_stats_req& req, Output& out);
void lane_get(Conn& conn, const mnemo_lane_get_req& req, Output& out);
void lane_list(Conn& conn, const mnemo_lane_list_req& req, Output& out);
// Search over the app's transcripts (ops_search.cpp; the rules are core/search.h).
void search(Conn& conn, const mnemo_search_req& req, Output& out);

// Export (a read; its records are buffered by the caller because a read may
// be run again) and import (a write: one transaction).
void export_step(Conn& conn, const mnemo_export_req& req, const mnemo_record_sink& sink);
void import_records(Conn& conn, const mnemo_import_req& req);

// The up_to_seq of the latest summary of filter_key (ptr NULL: ""), which is
// also emitted to out when out is set.
std::optional<int64_t> latest_summary(Conn& conn, int64_t sid, mnemo_str filter_key, Output* out);

}  // namespace mnemo::mysql
