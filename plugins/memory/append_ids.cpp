#include "append_ids.h"

#include <unordered_set>

namespace mnemo::memory {

namespace {

bool same_event(const EventRec& stored, const mnemo_event& given) {
    return stored.author() == view(given.author) && stored.role() == view(given.role) &&
           stored.same(EventRec::kContent, given.content_json);
}

}  // namespace

std::string_view duplicate_id(const mnemo_event* events, size_t n_events) {
    if (n_events < 2) return {};  // the common single-event append needs no set
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < n_events; ++i)
        if (!seen.insert(view(events[i].id)).second) return view(events[i].id);
    return {};
}

RetryCheck check_retry(const EventLog& log, const mnemo_event* events, size_t n_events) {
    size_t stored = 0;
    std::string_view first_new;
    for (size_t i = 0; i < n_events; ++i) {
        const EventRec* found = events[i].id_from_client ? log.find_visible_id(view(events[i].id)) : nullptr;
        if (!found) {
            if (first_new.empty()) first_new = view(events[i].id);
            continue;
        }
        if (!same_event(*found, events[i])) return RetryCheck{RetryKind::Reused, view(events[i].id)};
        ++stored;
    }
    if (stored == 0) return RetryCheck{};
    if (stored == n_events) return RetryCheck{RetryKind::Retried, {}};
    return RetryCheck{RetryKind::Mixed, first_new};
}

}  // namespace mnemo::memory
