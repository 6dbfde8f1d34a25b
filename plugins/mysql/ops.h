// ops.h -- the domain steps of the ABI, each a function over one connection.
// Write steps run inside their own READ COMMITTED transaction, so any
// StoreError they throw undoes exactly their changes (and MNEMO_E_BUSY makes
// the store run them again from the start); read steps run inside one
// REPEATABLE READ snapshot.
#pragma once

#include "connection.h"
#include "sql_ops.h"

#include <optional>
#include <vector>

namespace mnemo::mysql {

// Writes.
void session_create(Conn& conn, const mnemo_session_create_req& req, Output& out);
void session_delete(Conn& conn, const mnemo_session_delete_req& req, Output& out);
void user_purge(Conn& conn, const mnemo_user_purge_req& req, Output& out);
void lane_write(Conn& conn, const mnemo_lane_write_req& req, Output& out);
void lane_recover(Conn& conn, const mnemo_lane_recover_req& req, Output& out);
void sweep_step(Conn& conn, const mnemo_sweep_req& req, Output& out);
// Lists pending finalizes and claims them for this backend instance (see
// ops_lifecycle.cpp): a write, so two processes never list the same session.
void finalize_list(Conn& conn, const mnemo_finalize_list_req& req, Output& out);
// The sweep step of a process that did not get the sweep lock: all counts 0.
void sweep_skipped(Output& out);

// Reads.
void session_get(Conn& conn, const mnemo_session_get_req& req, Output& out);
void session_list(Conn& conn, const mnemo_session_list_req& req, Output& out);
void stats(Conn& conn, const mnemo_stats_req& req, Output& out);
void lane_get(Conn& conn, const mnemo_lane_get_req& req, Output& out);
void lane_list(Conn& conn, const mnemo_lane_list_req& req, Output& out);
// Search over the app's transcripts (ops_search.cpp; the rules are core/search.h).
void search(Conn& conn, const mnemo_search_req& req, Output& out);

// Export (a read; its records are buffered by the caller because a read may
// be run again) and import (a write: one transaction).
void export_step(Conn& conn, const mnemo_export_req& req, const mnemo_record_sink& sink);
void import_records(Conn& conn, const mnemo_import_req& req);

}  // namespace mnemo::mysql
