// memory_values.h -- a long-term memory's values as both the memory backend
// (MemoryRec, plugins/memory/memories.h) and the SQL core (MemoryRow,
// plugins/sql/memory_rows.h) hold them, and what both do with them alike:
// the ABI's view of them, an imported record's values and whether they
// differ from the stored ones, memory_write's rules (a retry, the given
// fields, a new text, a given vector) and recall's exact filters. Each
// backend's row adds the keys of its own text index. Header-only, like
// host_services.h.
#pragma once

#include "host_services.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::host {

struct MemoryValues {
    int64_t key = 0;
    std::string app, user, id, name_space, text, metadata_json = "{}";
    std::optional<std::string> session_id, source_session, embedding_model;
    int64_t source_seq = 0;
    int embedding = MNEMO_EMBEDDING_NONE;
    std::vector<float> vector;  // empty: none
    int64_t text_version = 1, created_at_us = 0, updated_at_us = 0, expires_at_us = 0, change_seq = 0;

    // 0 in expires_at means "never"; a memory is gone the moment it passes.
    bool live(int64_t now_us) const { return expires_at_us == 0 || expires_at_us > now_us; }
};

// The memory as the ABI shows it (pointing into row), with its vector when
// with_vector.
inline mnemo_memory memory_view(const MemoryValues& row, bool with_vector) {
    auto opt = [](const std::optional<std::string>& s) { return s ? detail::str(*s) : mnemo_str{nullptr, 0}; };
    mnemo_memory view{};
    view.key = row.key;
    view.app = detail::str(row.app);
    view.user = detail::str(row.user);
    view.id = detail::str(row.id);
    view.name_space = detail::str(row.name_space);
    view.text = detail::str(row.text);
    view.metadata_json = detail::str(row.metadata_json);
    view.session_id = opt(row.session_id);
    view.source_session = opt(row.source_session);
    view.source_seq = row.source_seq;
    view.embedding = row.embedding;
    view.embedding_model = opt(row.embedding_model);
    if (with_vector && !row.vector.empty()) view.vector = mnemo_vector{row.vector.data(), row.vector.size()};
    view.text_version = row.text_version;
    view.created_at_us = row.created_at_us;
    view.updated_at_us = row.updated_at_us;
    view.expires_at_us = row.expires_at_us;
    view.change_seq = row.change_seq;
    return view;
}

// An imported record's values: every field but the identity, the text (it
// goes through the backend's text index) and the store's own counters.
inline void assign_imported(MemoryValues& row, const mnemo_memory& m) {
    row.name_space = detail::copy(m.name_space);
    row.metadata_json = m.metadata_json.ptr ? detail::copy(m.metadata_json) : "{}";
    row.session_id = optional_copy(m.session_id);
    row.source_session = optional_copy(m.source_session);
    row.source_seq = m.source_seq;
    row.embedding = m.embedding;
    row.embedding_model = optional_copy(m.embedding_model);
    if (m.vector.values)
        row.vector.assign(m.vector.values, m.vector.values + m.vector.dims);
    else
        row.vector.clear();
    row.created_at_us = m.created_at_us;
    row.updated_at_us = m.updated_at_us;
    row.expires_at_us = m.expires_at_us;
}

// Whether every field an imported record carries equals the stored one:
// importing it changes nothing.
inline bool unchanged_by_import(const MemoryValues& row, const mnemo_memory& m) {
    using detail::view;
    auto same = [](const std::optional<std::string>& stored, mnemo_str given) {
        return stored.has_value() == (given.ptr != nullptr) && (!stored || *stored == view(given));
    };
    const bool same_vector = m.vector.values ? row.vector.size() == m.vector.dims &&
                                                   std::equal(row.vector.begin(), row.vector.end(), m.vector.values)
                                             : row.vector.empty();
    return row.text == view(m.text) && row.name_space == view(m.name_space) &&
           row.metadata_json == (m.metadata_json.ptr ? view(m.metadata_json) : "{}") &&
           same(row.session_id, m.session_id) && same(row.source_session, m.source_session) &&
           row.source_seq == m.source_seq && row.embedding == m.embedding &&
           same(row.embedding_model, m.embedding_model) && same_vector && row.created_at_us == m.created_at_us &&
           row.updated_at_us == m.updated_at_us && row.expires_at_us == m.expires_at_us;
}

// A vector given or computed for the memory: it is ready, made by model.
inline void store_vector(MemoryValues& row, mnemo_vector vector, mnemo_str model) {
    row.vector.assign(vector.values, vector.values + vector.dims);
    row.embedding = MNEMO_EMBEDDING_READY;
    row.embedding_model = optional_copy(model);
}

// A new text (the backend's text index took it): a new version, without the
// old text's vector until the embedder (if any) computes one.
inline void text_replaced(MemoryValues& row, bool embedder) {
    ++row.text_version;
    row.vector.clear();
    row.embedding = embedder ? MNEMO_EMBEDDING_PENDING : MNEMO_EMBEDDING_NONE;
    row.embedding_model.reset();
}

// memory_write's given fields but the text replace the stored ones (a given
// vector makes the memory ready); the write's time and TTL set its update
// and its expiry.
inline void apply_write(MemoryValues& row, const mnemo_memory_input& in, int64_t now_us) {
    if (in.name_space.ptr) row.name_space = detail::copy(in.name_space);
    if (in.metadata_json.ptr) row.metadata_json = detail::copy(in.metadata_json);
    if (in.session_id.ptr) row.session_id = detail::copy(in.session_id);
    if (in.vector.values) store_vector(row, in.vector, in.embedding_model);
    row.updated_at_us = now_us;
    row.expires_at_us = in.ttl_us > 0 ? now_us + in.ttl_us : 0;
}

// Whether memory_write's item for a stored id repeats it: every field it
// gives equals the stored one (absent fields count as equal; the vector and
// session_id take no part).
inline bool is_write_retry(const MemoryValues& row, const mnemo_memory_input& in) {
    using detail::view;
    return (!in.text.ptr || view(in.text) == row.text) &&
           (!in.name_space.ptr || view(in.name_space) == row.name_space) &&
           (!in.metadata_json.ptr || view(in.metadata_json) == row.metadata_json);
}

// Whether the memory's metadata holds every key with a value equal by JSON
// value (the host's json_member_equals).
inline bool metadata_matches(const mnemo_str* keys, const mnemo_str* values_json, size_t n, const MemoryValues& row) {
    for (size_t i = 0; i < n; ++i)
        if (!json_member_equals(row.metadata_json, detail::view(keys[i]), detail::view(values_json[i]))) return false;
    return true;
}

// Whether a memory passes every exact filter of recall (live at
// filter.now_us included); metadata compares by JSON value (the host's
// json_member_equals).
inline bool passes(const mnemo_memory_filter& filter, const MemoryValues& row) {
    using detail::view;
    if (!row.live(filter.now_us) || row.app != view(filter.app)) return false;
    if (filter.user.ptr && row.user != view(filter.user)) return false;
    if (filter.name_space.ptr && row.name_space != view(filter.name_space)) return false;
    if (filter.session_id.ptr && row.session_id != view(filter.session_id)) return false;
    if (filter.created_after_us > 0 && row.created_at_us <= filter.created_after_us) return false;
    if (filter.created_before_us > 0 && row.created_at_us >= filter.created_before_us) return false;
    return metadata_matches(filter.metadata_keys, filter.metadata_values_json, filter.n_metadata, row);
}

// Whether a memory passes memory_list's filters of ABI 7 (status, metadata);
// liveness, namespace and session are each backend's index scan.
inline bool passes_list_filters(const mnemo_memory_list_req& req, const MemoryValues& row) {
    if (req.statuses != 0 && (req.statuses & (1u << row.embedding)) == 0) return false;
    return metadata_matches(req.metadata_keys, req.metadata_values_json, req.n_metadata, row);
}

}  // namespace mnemo::host
