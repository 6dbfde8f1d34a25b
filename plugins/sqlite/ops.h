// ops.h -- the domain steps of the ABI, each a function over one connection.
// Write steps run on the writer thread inside their own savepoint, so any
// StoreError they throw undoes exactly their changes; read steps run inside
// one read snapshot of a pooled connection.
#pragma once

#include "connection.h"
#include "sql_ops.h"

#include <optional>
#include <vector>

namespace mnemo::sqlite {

// Writes.
void session_create(Conn& conn, const mnemo_session_create_req& req, Output& out);
void session_delete(Conn& conn, const mnemo_session_delete_req& req, Output& out);
void user_purge(Conn& conn, const mnemo_user_purge_req& req, Output& out);
void lane_write(Conn& conn, const mnemo_lane_write_req& req, Output& out);
void lane_recover(Conn& conn, const mnemo_lane_recover_req& req, Output& out);
void sweep_step(Conn& conn, const mnemo_sweep_req& req, Output& out);

// Reads.
void session_get(Conn& conn, const mnemo_session_get_req& req, Output& out);
void session_list(Conn& conn, const mnemo_session_list_req& req, Output& out);
void stats(Conn& conn, const mnemo_stats_req& req, Output& out);
void lane_get(Conn& conn, const mnemo_lane_get_req& req, Output& out);
void lane_list(Conn& conn, const mnemo_lane_list_req& req, Output& out);
void finalize_list(Conn& conn, const mnemo_finalize_list_req& req, Output& out);
void search(Conn& conn, const mnemo_search_req& req, Output& out);

// Export (a read: one snapshot) and import (a write: one savepoint).
void export_step(Conn& conn, const mnemo_export_req& req, const mnemo_record_sink& sink);
void import_records(Conn& conn, const mnemo_import_req& req);

}  // namespace mnemo::sqlite
