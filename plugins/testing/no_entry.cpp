// mnemo_no_entry.so: a loader-test fixture. A loadable shared object that
// exports no mnemo_plugin_entry, only a marker the tests can find to prove
// the object itself was loaded.
#include "mnemo_plugin.h"

extern "C" MNEMO_PLUGIN_EXPORT const char mnemo_no_entry_marker[] = "mnemo_no_entry";
