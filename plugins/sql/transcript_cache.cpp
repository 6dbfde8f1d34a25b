#include "transcript_cache.h"

#include "dialect.h"

#include <unordered_set>

namespace mnemo::sqlcore {
namespace {

// More sessions to read again than this: one pass over the scope's events
// instead of a statement per session.
constexpr size_t kSessionsReadOneByOne = 64;

// A session's visible events past a seq (sid, seq), oldest first.
constexpr const char* kEventsAfterSql =
    "SELECT seq, COALESCE(role, ''), COALESCE(search_text, ''), CASE WHEN term_count IS NULL THEN 0 ELSE 1 END "
    "FROM events WHERE sid = ? AND deleted_at = 0 AND seq > ? ORDER BY seq";

// Every visible event of the scope's sessions by session (app, now[, user]).
std::string scope_events_sql(bool user) {
    return std::string("SELECT e.sid, e.seq, COALESCE(e.role, ''), COALESCE(e.search_text, ''), CASE WHEN "
                       "e.term_count IS NULL THEN 0 ELSE 1 END FROM events e JOIN sessions s ON s.sid = e.sid "
                       "WHERE s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > +?)") +
           (user ? " AND s.user = ?" : "") + " AND e.deleted_at = 0 ORDER BY e.sid, e.seq";
}

TranscriptIndex::Read read_of(const Query& row, int first) {
    return TranscriptIndex::Read{row.i64(first), view(row.str(first + 1)), view(row.str(first + 2)),
                                 row.i64(first + 3) != 0};
}

// An event read, kept until the session's count says whether it is an append.
struct Appended {
    int64_t seq;
    std::string role, text;
    bool counted;
};

// The slot of the row's session; what it holds of another session of the
// same sid (SQLite gives a purged session's sid out again) is dropped.
uint32_t slot_for(const ScopeSession& row, TranscriptIndex& index) {
    if (const std::optional<uint32_t> held = index.slot_of(row.sid)) {
        const TranscriptIndex::Session& session = index.sessions()[*held];
        if (session.signature.created_at_us == row.signature.created_at_us && session.user == row.user) return *held;
        index.drop(*held);
    }
    return index.open(row.sid, row.user);
}

// Reads the session again: only its events past the last seq held when
// that accounts for every visible event its row counts, else all of them.
void read_session(Db& db, const ScopeSession& row, TranscriptIndex& index) {
    const uint32_t slot = slot_for(row, index);
    const TranscriptIndex::Session& held = index.sessions()[slot];
    std::vector<Appended> appended;
    {
        Query events(db, kEventsAfterSql);
        events.args(row.sid, held.max_seq);
        while (events.step()) {
            const TranscriptIndex::Read read = read_of(events, 0);
            appended.push_back(Appended{read.seq, std::string(read.role), std::string(read.text), read.counted});
        }
    }
    if (held.visible + static_cast<int64_t>(appended.size()) == row.signature.event_count) {
        for (const Appended& event : appended) index.add(slot, {event.seq, event.role, event.text, event.counted});
    } else {
        index.clear(slot);
        Query events(db, kEventsAfterSql);
        events.args(row.sid, 0);
        while (events.step()) index.add(slot, read_of(events, 0));
    }
    index.sign(slot, row.signature);
}

// Reads the stale sessions again in one pass over the scope's events.
void read_in_one_pass(Db& db, const mnemo_search_req& req, const std::vector<const ScopeSession*>& stale,
                      TranscriptIndex& index) {
    std::unordered_set<int64_t> sids;
    for (const ScopeSession* row : stale) {
        sids.insert(row->sid);
        index.clear(slot_for(*row, index));
    }
    Query events(db, scope_events_sql(req.user.ptr != nullptr));
    events.args(req.app, req.now_us);
    if (req.user.ptr) events.bind(3, req.user);
    while (events.step()) {
        const int64_t sid = events.i64(0);
        if (!sids.contains(sid)) continue;
        index.add(*index.slot_of(sid), read_of(events, 1));
    }
    for (const ScopeSession* row : stale) index.sign(*index.slot_of(row->sid), row->signature);
    index.shrink();
}

}  // namespace

std::vector<ScopeSession> TranscriptCache::read_scope(Db& db, const mnemo_search_req& req) {
    const bool user = req.user.ptr != nullptr;
    Query rows(db, user ? db.dialect().search_scope_user : db.dialect().search_scope_app);
    rows.args(req.exclude_session, req.exclude_session, req.channel, req.channel, req.channel, req.app, req.now_us);
    if (user) rows.bind(8, req.user);
    std::vector<ScopeSession> scope;
    while (rows.step()) {
        ScopeSession session;
        session.sid = rows.i64(0);
        session.user = text(rows.str(1));
        session.signature = {rows.i64(2), rows.i64(3), rows.i64(4), rows.i64(5), rows.i64(6)};
        session.updated_at_us = rows.i64(7);
        session.id = text(rows.str(8));
        session.passes = rows.i64(9) != 0;
        scope.push_back(std::move(session));
    }
    return scope;
}

bool TranscriptCache::holds(const TranscriptIndex& index, const std::vector<ScopeSession>& scope) {
    for (const ScopeSession& row : scope) {
        const std::optional<uint32_t> slot = index.slot_of(row.sid);
        if (!slot || index.sessions()[*slot].signature != row.signature) return false;
    }
    return true;
}

void TranscriptCache::catch_up(Db& db, const mnemo_search_req& req, const std::vector<ScopeSession>& scope,
                               TranscriptIndex& index) {
    std::unordered_set<int64_t> in_scope;
    std::vector<const ScopeSession*> stale;
    for (const ScopeSession& row : scope) {
        in_scope.insert(row.sid);
        const std::optional<uint32_t> slot = index.slot_of(row.sid);
        if (!slot || index.sessions()[*slot].signature != row.signature) stale.push_back(&row);
    }
    // The sessions of the scope's app (or user) the scope lacks are gone.
    for (uint32_t slot = 0; slot < index.sessions().size(); ++slot) {
        const TranscriptIndex::Session& session = index.sessions()[slot];
        if (session.sid == 0 || in_scope.contains(session.sid)) continue;
        if (!req.user.ptr || session.user == view(req.user)) index.drop(slot);
    }
    if (stale.size() > kSessionsReadOneByOne) {
        read_in_one_pass(db, req, stale, index);
    } else {
        for (const ScopeSession* row : stale) read_session(db, *row, index);
    }
    index.pack_if_sparse();
}

TranscriptCache::Entry& TranscriptCache::entry_of(std::string_view app) {
    std::lock_guard guard(entries_lock_);
    auto it = entries_.find(std::string(app));
    if (it == entries_.end()) it = entries_.emplace(std::string(app), std::make_unique<Entry>()).first;
    return *it->second;
}

bool TranscriptCache::rare(std::string_view app, const std::vector<std::string>& terms, double per_session) {
    Entry& entry = entry_of(app);
    std::shared_lock read(entry.lock);
    const auto sessions = static_cast<double>(entry.index.session_count());
    return sessions > 0 && static_cast<double>(entry.index.postings_of(terms)) < per_session * sessions;
}

void TranscriptCache::forget_all() {
    std::lock_guard guard(entries_lock_);
    for (auto& [app, entry] : entries_) {
        std::unique_lock write(entry->lock);
        entry->index = TranscriptIndex{};
    }
}

}  // namespace mnemo::sqlcore
