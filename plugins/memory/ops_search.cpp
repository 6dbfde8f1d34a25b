// Search over the app's transcripts (mnemo_search_req): candidates from the
// app's SearchIndex and its pending tail (search_indexer.h), filtered and
// grouped by session, best session first.
#include "host_services.h"
#include "emit.h"
#include "ops.h"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace mnemo::memory {
namespace {

namespace sw = host;

struct Filters {
    const mnemo_search_req& req;
    std::unordered_map<const SessionRec*, bool> session_ok;  // memo per session

    bool session_passes(const SessionRec& session) {
        auto [slot, fresh] = session_ok.try_emplace(&session, false);
        if (fresh) slot->second = check_session(session);
        return slot->second;
    }

    bool check_session(const SessionRec& session) const {
        if (!session.visible(req.now_us)) return false;
        if (req.user.ptr && session.user != view(req.user)) return false;
        if (req.exclude_session.ptr && session.id == view(req.exclude_session)) return false;
        if (!req.channel.ptr) return true;
        // The channel is the metadata's string "channel" or "platform".
        const auto members = sw::json_members(session.metadata_json);
        if (!members) return false;
        for (const sw::JsonMember& member : *members) {
            if (member.kind == MNEMO_JSON_STRING && (member.key == "channel" || member.key == "platform") &&
                member.text == view(req.channel))
                return true;
        }
        return false;
    }

    bool event_passes(const EventRec& event) const { return !req.role.ptr || event.role() == view(req.role); }
};

struct Group {
    const SessionRec* session = nullptr;
    std::vector<int64_t> seqs;
};

// The visible event of a key, or null when it is gone.
const EventRec* event_of(const EventKey& key) {
    const auto& visible = key.session->events.visible();
    size_t index = key.session->events.first_after(key.seq - 1);
    return index < visible.size() && visible[index].seq() == key.seq ? &visible[index] : nullptr;
}

// Every visible event of the app's live sessions, for queries without a word.
std::vector<EventKey> all_events(const AppRec& app) {
    std::vector<EventKey> keys;
    for (const auto& [name, user] : app.users) {
        for (const auto& [id, session] : user.sessions) {
            for (const EventRec& event : session->events.visible())
                keys.push_back(EventKey{session.get(), event.seq()});
        }
    }
    return keys;
}

// The events that may match, each once: keys[verify_from..] are to be
// verified against the query. A word query's postings are exact, the
// pending tail is matched by the host's rules like every exact candidate;
// a scan of every visible event holds the tail already.
struct Candidates {
    std::vector<EventKey> keys;
    size_t verify_from = 0;
};

Candidates candidates(const Store& store, const AppRec& app, const sw::Query& query) {
    SearchIndexer::View view = store.indexer.view(app);
    Candidates found;
    if (query.kind == sw::QueryKind::Words) {
        found.keys = view.index.with_all(query.words);
        found.verify_from = found.keys.size();
    } else if (auto listed = view.index.exact_candidates(query.exact)) {
        found.keys = std::move(*listed);
    } else {
        found.keys = all_events(app);
        return found;
    }
    found.keys.insert(found.keys.end(), view.tail.begin(), view.tail.end());
    return found;
}

std::vector<Group> group_hits(const Store& store, const AppRec& app, const sw::Query& query, Filters& filters) {
    std::unordered_map<const SessionRec*, Group> by_session;
    const Candidates found = candidates(store, app, query);
    for (size_t i = 0; i < found.keys.size(); ++i) {
        const EventKey& key = found.keys[i];
        if (!filters.session_passes(*key.session)) continue;
        const EventRec* event = event_of(key);
        if (!event || !filters.event_passes(*event)) continue;
        if (i >= found.verify_from && !sw::matches(query, event->search_text())) continue;
        Group& group = by_session[key.session];
        group.session = key.session;
        group.seqs.push_back(key.seq);
    }
    std::vector<Group> groups;
    for (auto& [session, group] : by_session) groups.push_back(std::move(group));
    return groups;
}

// Most hits first, then the most recently updated, then by id.
void rank(std::vector<Group>& groups) {
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        if (a.seqs.size() != b.seqs.size()) return a.seqs.size() > b.seqs.size();
        if (a.session->updated_at_us != b.session->updated_at_us)
            return a.session->updated_at_us > b.session->updated_at_us;
        return std::tie(a.session->id, a.session->user) > std::tie(b.session->id, b.session->user);
    });
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
    rank(groups);
    if (static_cast<int64_t>(groups.size()) > req.limit) groups.resize(static_cast<size_t>(req.limit));
    for (Group& group : groups) {
        std::sort(group.seqs.begin(), group.seqs.end());
        emit_session(sink, *group.session);
        int64_t sent = 0;
        for (int64_t seq : group.seqs) {
            if (sent++ == req.max_hits) break;
            emit_hit(sink, *group.session, seq, std::max<int64_t>(req.context, 0));
        }
    }
}

// Empty q: the most recently updated sessions passing the filters.
void emit_recent(const mnemo_sink* sink, const AppRec& app, Filters& filters) {
    int64_t sent = 0;
    for (const ListKey& key : app.index) {
        if (sent == filters.req.limit) return;
        if (!filters.session_passes(*key.session)) continue;
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
    Filters filters{*req, {}};
    sw::Query query = sw::parse_query(view(req->q));
    if (query.kind == sw::QueryKind::Recent) {
        emit_recent(sink, *app, filters);
        return MNEMO_OK;
    }
    std::vector<Group> groups = group_hits(store, *app, query, filters);
    emit_groups(sink, groups, *req);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
