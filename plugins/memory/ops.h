// ops.h -- the operations of mnemo_storage_ops as the memory backend
// implements them, one file per family; ops_table.cpp puts them in the table.
#pragma once

#include "mnemo_plugin.h"

namespace mnemo::memory {

const mnemo_storage_ops* storage_ops();

int open_backend(const mnemo_host* host, const char* options_json, mnemo_backend** out, mnemo_error* err);
void close_backend(mnemo_backend* backend);
int ping(mnemo_backend* backend, mnemo_error* err);
int stats(mnemo_backend* backend, const mnemo_stats_req* req, const mnemo_sink* sink, mnemo_error* err);

int session_create(mnemo_backend* backend, const mnemo_session_create_req* req, const mnemo_sink* sink,
                   mnemo_error* err);
int session_get(mnemo_backend* backend, const mnemo_session_get_req* req, const mnemo_sink* sink, mnemo_error* err);
int session_list(mnemo_backend* backend, const mnemo_session_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int session_delete(mnemo_backend* backend, const mnemo_session_delete_req* req, const mnemo_sink* sink,
                   mnemo_error* err);
int user_purge(mnemo_backend* backend, const mnemo_user_purge_req* req, const mnemo_sink* sink, mnemo_error* err);

int events_append(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                  const mnemo_sink* sink, mnemo_error* err);
int events_list(mnemo_backend* backend, const mnemo_events_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int events_rewrite(mnemo_backend* backend, const mnemo_rewrite_req* req, const mnemo_sink* sink, mnemo_error* err);
int events_rewind(mnemo_backend* backend, const mnemo_rewind_req* req, const mnemo_sink* sink, mnemo_error* err);

int state_patch(mnemo_backend* backend, const mnemo_state_patch_req* req, const mnemo_sink* sink, mnemo_error* err);
int state_get(mnemo_backend* backend, const mnemo_state_get_req* req, const mnemo_sink* sink, mnemo_error* err);
int state_delete(mnemo_backend* backend, const mnemo_state_delete_req* req, mnemo_error* err);

int summary_put(mnemo_backend* backend, const mnemo_summary_put_req* req, const mnemo_sink* sink, mnemo_error* err);
int summary_list(mnemo_backend* backend, const mnemo_summary_list_req* req, const mnemo_sink* sink, mnemo_error* err);

int track_append(mnemo_backend* backend, const mnemo_track_append_req* req, const mnemo_sink* sink, mnemo_error* err);
int track_list(mnemo_backend* backend, const mnemo_track_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int session_tracks(mnemo_backend* backend, const mnemo_session_tracks_req* req, const mnemo_sink* sink,
                   mnemo_error* err);

int lane_get(mnemo_backend* backend, const mnemo_lane_get_req* req, const mnemo_sink* sink, mnemo_error* err);
int lane_write(mnemo_backend* backend, const mnemo_lane_write_req* req, const mnemo_sink* sink, mnemo_error* err);
int lane_list(mnemo_backend* backend, const mnemo_lane_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int lane_recover(mnemo_backend* backend, const mnemo_lane_recover_req* req, const mnemo_sink* sink, mnemo_error* err);

int sweep_step(mnemo_backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err);
int finalize_list(mnemo_backend* backend, const mnemo_finalize_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int finalize_done(mnemo_backend* backend, const mnemo_finalize_done_req* req, const mnemo_sink* sink, mnemo_error* err);
int finalize_done_batch(mnemo_backend* backend, const mnemo_finalize_done_batch_req* req, const mnemo_sink* sink,
                        mnemo_error* err);

int search(mnemo_backend* backend, const mnemo_search_req* req, const mnemo_sink* sink, mnemo_error* err);

// Export and import (ops_export.cpp, ops_import.cpp).
int export_step(mnemo_backend* backend, const mnemo_export_req* req, const mnemo_record_sink* sink, mnemo_error* err);
int import_records(mnemo_backend* backend, const mnemo_import_req* req, mnemo_error* err);

// Long-term memories (ops_memory_write.cpp, ops_memory_read.cpp).
int memory_write(mnemo_backend* backend, const mnemo_memory_write_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_get(mnemo_backend* backend, const mnemo_memory_get_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_patch(mnemo_backend* backend, const mnemo_memory_patch_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_delete(mnemo_backend* backend, const mnemo_memory_delete_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_list(mnemo_backend* backend, const mnemo_memory_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_search(mnemo_backend* backend, const mnemo_memory_search_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_keys(mnemo_backend* backend, const mnemo_memory_keys_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_candidates(mnemo_backend* backend, const mnemo_memory_candidates_req* req, const mnemo_sink* sink,
                      mnemo_error* err);
int memory_changes(mnemo_backend* backend, const mnemo_memory_changes_req* req, const mnemo_sink* sink,
                   mnemo_error* err);
int memory_embed(mnemo_backend* backend, const mnemo_memory_embed_req* req, const mnemo_sink* sink, mnemo_error* err);
int memory_pending(mnemo_backend* backend, const mnemo_memory_pending_req* req, const mnemo_sink* sink,
                   mnemo_error* err);
int memory_reembed(mnemo_backend* backend, const mnemo_memory_reembed_req* req, const mnemo_sink* sink,
                   mnemo_error* err);
int memory_count(mnemo_backend* backend, const mnemo_memory_count_req* req, const mnemo_sink* sink, mnemo_error* err);

// The extraction cursor (ops_extracted.cpp).
int session_extracted(mnemo_backend* backend, const mnemo_extracted_req* req, const mnemo_sink* sink, mnemo_error* err);

// The apps and users holding data (ops_activity.cpp).
int app_list(mnemo_backend* backend, const mnemo_app_list_req* req, const mnemo_sink* sink, mnemo_error* err);
int user_list(mnemo_backend* backend, const mnemo_user_list_req* req, const mnemo_sink* sink, mnemo_error* err);

}  // namespace mnemo::memory
