#include "event_filter.h"

#include <algorithm>

namespace mnemo::memory {

namespace {

struct Predicate {
    int64_t after_ts_us = 0;
    std::vector<std::string_view> roles;  // empty: any
    std::string_view filter_key;

    bool operator()(const EventRec& e) const {
        // A read without conditions must not touch the event's block here:
        // selecting is then a walk of seqs alone.
        if (after_ts_us == 0 && filter_key.empty() && roles.empty()) return true;
        if (after_ts_us != 0 && e.timestamp_us() <= after_ts_us) return false;
        if (!filter_key_matches(e.filter_key(), filter_key)) return false;
        return roles.empty() || std::find(roles.begin(), roles.end(), e.role()) != roles.end();
    }
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split_roles(std::string_view list) {
    std::vector<std::string_view> roles;
    while (!list.empty()) {
        size_t comma = list.find(',');
        std::string_view role = trim(list.substr(0, comma));
        if (!role.empty()) roles.push_back(role);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return roles;
}

// The newest num_recent matches, walking back from the end.
template <typename At>
EventSelection select_newest(size_t begin, size_t end, At at, const Predicate& match, const mnemo_event_filter& f) {
    EventSelection out;
    for (size_t i = end; i > begin && static_cast<int64_t>(out.events.size()) < f.num_recent; --i)
        if (match(at(i - 1))) out.events.push_back(&at(i - 1));
    std::reverse(out.events.begin(), out.events.end());
    if (f.limit > 0 && static_cast<int64_t>(out.events.size()) > f.limit) {
        out.events.resize(static_cast<size_t>(f.limit));
        out.has_more = true;
    }
    return out;
}

// The oldest `limit` matches; one match past the limit proves has_more.
template <typename At>
EventSelection select_oldest(size_t begin, size_t end, At at, const Predicate& match, const mnemo_event_filter& f) {
    EventSelection out;
    for (size_t i = begin; i < end; ++i) {
        if (!match(at(i))) continue;
        if (f.limit > 0 && static_cast<int64_t>(out.events.size()) == f.limit) {
            out.has_more = true;
            break;
        }
        out.events.push_back(&at(i));
    }
    return out;
}

template <typename At>
EventSelection select_range(size_t begin, size_t end, At at, const Predicate& match, const mnemo_event_filter& f) {
    if (f.num_recent > 0) return select_newest(begin, end, at, match, f);
    return select_oldest(begin, end, at, match, f);
}

// Visible and soft-deleted events after after_seq, merged by seq.
std::vector<const EventRec*> merged_after(const EventLog& log, int64_t after_seq) {
    std::vector<const EventRec*> merged;
    const auto& visible = log.visible();
    auto deleted = log.deleted().upper_bound(after_seq);
    for (size_t i = log.first_after(after_seq); i < visible.size(); ++i) {
        for (; deleted != log.deleted().end() && deleted->first < visible[i].seq(); ++deleted)
            merged.push_back(&deleted->second);
        merged.push_back(&visible[i]);
    }
    for (; deleted != log.deleted().end(); ++deleted) merged.push_back(&deleted->second);
    return merged;
}

}  // namespace

bool filter_key_matches(std::string_view event_key, std::string_view wanted) {
    if (wanted.empty() || event_key == wanted) return true;
    return event_key.size() > wanted.size() && event_key.substr(0, wanted.size()) == wanted &&
           event_key[wanted.size()] == '/';
}

const SummaryRec* latest_summary(const SessionRec& session, std::string_view filter_key) {
    auto found = session.summaries.find(filter_key);
    if (found == session.summaries.end() || found->second.empty()) return nullptr;
    return &found->second.back();
}

EventSelection select_events(const SessionRec& session, const mnemo_event_filter& f) {
    Predicate match{f.after_ts_us, split_roles(view(f.roles)), view(f.filter_key)};
    int64_t floor = std::max<int64_t>(f.after_seq, 0);
    if (f.from_checkpoint) {
        if (const SummaryRec* summary = latest_summary(session, view(f.filter_key)))
            floor = std::max(floor, summary->up_to_seq);
    }
    const EventLog& log = session.events;
    if (f.include_deleted) {
        std::vector<const EventRec*> merged = merged_after(log, floor);
        auto at = [&merged](size_t i) -> const EventRec& { return *merged[i]; };
        return select_range(0, merged.size(), at, match, f);
    }
    auto at = [&log](size_t i) -> const EventRec& { return log.visible()[i]; };
    return select_range(log.first_after(floor), log.visible().size(), at, match, f);
}

int64_t count_visible(const SessionRec& session, std::string_view filter_key, int64_t from_seq, int64_t up_to_seq) {
    const auto& visible = session.events.visible();
    int64_t count = 0;
    for (size_t i = session.events.first_after(from_seq - 1); i < visible.size() && visible[i].seq() <= up_to_seq; ++i)
        if (filter_key_matches(visible[i].filter_key(), filter_key)) ++count;
    return count;
}

}  // namespace mnemo::memory
