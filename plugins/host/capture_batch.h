// capture_batch.h -- the captures of one append or rewrite as a backend
// receives them (mnemo_plugin.h "capture from conversations"), with the
// session they come from: the one shape both the memory backend
// (plugins/memory/captures.h) and the SQL core (plugins/sql/capture_rows.h)
// check and store. Header-only, like host_services.h.
#pragma once

#include "mnemo_plugin.h"

#include <cstddef>
#include <cstdint>

namespace mnemo::host {

struct CaptureBatch {
    const mnemo_key* key = nullptr;  // the session; its user owns the memories
    const mnemo_capture* items = nullptr;
    size_t n_items = 0;
    size_t n_events = 0;  // the request's events, which event_index points into
    const mnemo_capture_settings* settings = nullptr;
    int64_t now_us = 0;
};

}  // namespace mnemo::host
