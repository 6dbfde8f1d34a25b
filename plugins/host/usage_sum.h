// usage_sum.h -- how a session's token and cost totals (mnemo_usage) grow by
// each appended event's usage, the same on every backend. Header-only, like
// host_services.h.
#pragma once

#include "mnemo_plugin.h"

namespace mnemo::host {

inline void add_usage(mnemo_usage& sum, const mnemo_usage& add) {
    sum.input_tokens += add.input_tokens;
    sum.output_tokens += add.output_tokens;
    sum.cache_read_tokens += add.cache_read_tokens;
    sum.cache_write_tokens += add.cache_write_tokens;
    sum.total_tokens += add.total_tokens;
    sum.cost_usd += add.cost_usd;
}

}  // namespace mnemo::host
