/* mnemo_no_entry.so: a loader-test fixture. A loadable shared object that
 * exports no mnemo_plugin_entry, only a marker the tests can find to prove
 * the object itself was loaded. Written in C (C99, -Wpedantic): building it
 * checks that mnemo_plugin.h stays a plain C header. */
#include "mnemo_plugin.h"

MNEMO_PLUGIN_EXPORT const char mnemo_no_entry_marker[] = "mnemo_no_entry";

/* Every struct of the ABI, named once, so a C compiler reads all of them. */
MNEMO_PLUGIN_EXPORT size_t mnemo_no_entry_abi_bytes(void) {
    return sizeof(mnemo_plugin) + sizeof(mnemo_storage_ops) + sizeof(mnemo_host) + sizeof(mnemo_sink) +
           sizeof(mnemo_record_sink) + sizeof(mnemo_sweep_result) + sizeof(mnemo_finalize_result) +
           sizeof(mnemo_append_result) + sizeof(mnemo_lane_write_req) + sizeof(mnemo_search_req) +
           sizeof(mnemo_export_req) + sizeof(mnemo_import_req) + sizeof(mnemo_finalize_done_batch_req);
}
