// Search over the app's transcripts (mnemo_search_req): the matching events
// with their relevance (search_ranking.h), the role filter, then sessions by
// their best event and each session's max_hits best events.
#include "emit.h"
#include "ops.h"
#include "search_ranking.h"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace mnemo::memory {
namespace {

struct Group {
    const SessionRec* session = nullptr;
    double best = 0;
    std::vector<ScoredEvent> hits;
};

bool event_passes(const mnemo_search_req& req, const ScoredEvent& scored) {
    if (!req.role.ptr) return true;
    const EventRec* event = visible_event(*scored.session, scored.seq);
    return event && event->role() == view(req.role);
}

// Best first: relevance desc, ties the later seq first.
bool better_hit(const ScoredEvent& a, const ScoredEvent& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    return a.seq > b.seq;
}

// Best session first: its best event's relevance desc, ties updated_at desc, then id desc.
bool better_group(const Group& a, const Group& b) {
    if (a.best != b.best) return a.best > b.best;
    if (a.session->updated_at_us != b.session->updated_at_us) return a.session->updated_at_us > b.session->updated_at_us;
    return std::tie(a.session->id, a.session->user) > std::tie(b.session->id, b.session->user);
}

// The `limit` best sessions. The events are taken best first from a heap, so
// the first one of a session to pass the role filter is its best; once
// `limit` sessions are found, an event below the last one's best can start
// no session that would rank among them (one equal to it may: ties go by
// updated_at, so those are taken too and the sort decides).
std::vector<Group> best_sessions(std::vector<ScoredEvent>& scored, const mnemo_search_req& req) {
    std::vector<Group> groups;
    if (req.limit <= 0) return groups;
    const auto limit = static_cast<size_t>(req.limit);
    auto worse = [](const ScoredEvent& a, const ScoredEvent& b) { return better_hit(b, a); };
    // In place: a popped event stays in scored, past the heap's end.
    auto end = scored.end();
    std::make_heap(scored.begin(), end, worse);
    std::unordered_map<const SessionRec*, bool> seen;
    while (end != scored.begin()) {
        const ScoredEvent top = scored.front();
        if (groups.size() >= limit && top.relevance < groups.back().best) break;
        std::pop_heap(scored.begin(), end, worse);
        --end;
        if (seen.contains(top.session) || !event_passes(req, top)) continue;
        seen.emplace(top.session, true);
        groups.push_back(Group{top.session, top.relevance, {}});
    }
    std::sort(groups.begin(), groups.end(), better_group);
    if (groups.size() > limit) groups.resize(limit);
    return groups;
}

// Each chosen session's max_hits best events passing the role filter.
void collect_hits(std::vector<Group>& groups, const std::vector<ScoredEvent>& scored, const mnemo_search_req& req) {
    // At most limit (100) sessions: a sorted vector, searched per event.
    std::vector<std::pair<const SessionRec*, Group*>> chosen;
    for (Group& group : groups) chosen.emplace_back(group.session, &group);
    std::sort(chosen.begin(), chosen.end());
    auto group_of = [&](const SessionRec* session) -> Group* {
        auto it = std::lower_bound(chosen.begin(), chosen.end(), std::make_pair(session, static_cast<Group*>(nullptr)));
        return it != chosen.end() && it->first == session ? it->second : nullptr;
    };
    std::vector<ScoredEvent> theirs;
    for (const ScoredEvent& event : scored)
        if (group_of(event.session)) theirs.push_back(event);
    std::sort(theirs.begin(), theirs.end(), better_hit);
    for (const ScoredEvent& event : theirs) {
        Group& group = *group_of(event.session);
        if (static_cast<int64_t>(group.hits.size()) >= req.max_hits || !event_passes(req, event)) continue;
        group.hits.push_back(event);
    }
}

void emit_hit(const mnemo_sink* sink, const SessionRec& session, int64_t seq, int64_t context) {
    const auto& visible = session.events.visible();
    size_t at = session.events.first_after(seq - 1);
    size_t from = at >= static_cast<size_t>(context) ? at - static_cast<size_t>(context) : 0;
    size_t to = std::min(visible.size(), at + static_cast<size_t>(context) + 1);
    emit_result<&mnemo_sink::search_hit>(sink, seq);
    for (size_t i = from; i < to; ++i) emit_event(sink, visible[i]);
}

void emit_groups(const mnemo_sink* sink, std::vector<Group>& groups, const mnemo_search_req& req) {
    for (Group& group : groups) {
        if (req.order == MNEMO_ORDER_TIME)
            std::sort(group.hits.begin(), group.hits.end(),
                      [](const ScoredEvent& a, const ScoredEvent& b) { return a.seq < b.seq; });
        emit_session(sink, *group.session);
        for (const ScoredEvent& hit : group.hits)
            emit_hit(sink, *group.session, hit.seq, std::max<int64_t>(req.context, 0));
    }
}

// Empty q: the most recently updated sessions passing the filters.
void emit_recent(const mnemo_sink* sink, const AppRec& app, SessionFilter& sessions) {
    int64_t sent = 0;
    for (const ListKey& key : app.index) {
        if (sent == sessions.req().limit) return;
        if (!sessions.passes(*key.session)) continue;
        emit_session(sink, *key.session);
        ++sent;
    }
}

}  // namespace

int search(mnemo_backend* backend, const mnemo_search_req* req, const mnemo_sink* sink, mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    const AppRec* app = find_app(store, view(req->app));
    if (!app) return MNEMO_OK;
    SessionFilter sessions(*req);
    const host::Query query = host::parse_query(view(req->q), req->match);
    if (query.kind == host::QueryKind::Recent) {
        emit_recent(sink, *app, sessions);
        return MNEMO_OK;
    }
    std::vector<ScoredEvent> scored;
    {
        const SearchIndexer::View index = store.indexer.view(*app);
        scored = score_best_sessions(index, query, sessions, static_cast<size_t>(std::max<int64_t>(req->limit, 0)));
    }
    std::vector<Group> groups = best_sessions(scored, *req);
    collect_hits(groups, scored, *req);
    emit_groups(sink, groups, *req);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
