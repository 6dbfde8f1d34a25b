#include "memory_filter.h"

namespace mnemo::memory {

namespace {

bool metadata_passes(const mnemo_memory_filter& filter, const MemoryRec& row) {
    for (size_t i = 0; i < filter.n_metadata; ++i)
        if (!host::json_member_equals(row.metadata_json, view(filter.metadata_keys[i]),
                                      view(filter.metadata_values_json[i])))
            return false;
    return true;
}

}  // namespace

bool passes(const mnemo_memory_filter& filter, const MemoryRec& row) {
    if (!row.live(filter.now_us) || row.app != view(filter.app)) return false;
    if (filter.user.ptr && row.user != view(filter.user)) return false;
    if (filter.name_space.ptr && row.name_space != view(filter.name_space)) return false;
    if (filter.session_id.ptr && !(row.session_id.present && row.session_id.bytes == view(filter.session_id)))
        return false;
    if (filter.created_after_us > 0 && row.created_at_us <= filter.created_after_us) return false;
    if (filter.created_before_us > 0 && row.created_at_us >= filter.created_before_us) return false;
    return metadata_passes(filter, row);
}

}  // namespace mnemo::memory
