#include "memories.h"

#include <algorithm>

namespace mnemo::memory {

namespace {

std::string text_key(std::string_view name_space, std::string_view folded_text) {
    std::string key;
    key.reserve(name_space.size() + 1 + folded_text.size());
    key.append(name_space).push_back('\0');  // namespaces never hold NUL
    key.append(folded_text);
    return key;
}

// Erases the entry of row under key from a multimap whose keys may repeat.
template <typename Map, typename Key>
void erase_entry(Map& map, const Key& key, const MemoryRec* row) {
    auto [begin, end] = map.equal_range(key);
    for (auto it = begin; it != end; ++it)
        if (it->second == row) {
            map.erase(it);
            return;
        }
}

}  // namespace

void MemoryRec::set_text(std::string_view new_text, std::string_view new_folded_text) {
    text = std::string(new_text);
    folded_text = std::string(new_folded_text);
    terms = host::count_terms(text, &length);
}

AppMemories* MemoryStore::find_app(std::string_view app) {
    auto it = apps_.find(app);
    return it == apps_.end() ? nullptr : &it->second;
}

UserMemories* MemoryStore::find_user(std::string_view app, std::string_view user) {
    AppMemories* found = find_app(app);
    if (!found) return nullptr;
    auto it = found->users.find(user);
    return it == found->users.end() ? nullptr : &it->second;
}

AppMemories& MemoryStore::ensure_app(std::string_view app) {
    auto it = apps_.find(app);
    return it != apps_.end() ? it->second : apps_.emplace(std::string(app), AppMemories{}).first->second;
}

MemoryRec* MemoryStore::find_key(int64_t key) {
    auto it = rows_.find(key);
    return it == rows_.end() ? nullptr : it->second.get();
}

MemoryRec* MemoryStore::live_by_id(std::string_view app, std::string_view user, std::string_view id, int64_t now_us) {
    UserMemories* memories = find_user(app, user);
    if (!memories) return nullptr;
    auto it = memories->by_id.find(id);
    return it != memories->by_id.end() && it->second->live(now_us) ? it->second : nullptr;
}

MemoryRec* MemoryStore::live_by_text(std::string_view app, std::string_view user, std::string_view name_space,
                                     std::string_view folded_text, int64_t now_us) {
    UserMemories* memories = find_user(app, user);
    if (!memories) return nullptr;
    auto [begin, end] = memories->by_text.equal_range(text_key(name_space, folded_text));
    for (auto it = begin; it != end; ++it)
        if (it->second->live(now_us)) return it->second;
    return nullptr;
}

MemoryRec& MemoryStore::insert(std::unique_ptr<MemoryRec> owned) {
    MemoryRec& row = *owned;
    row.key = next_key_++;
    rows_.emplace(row.key, std::move(owned));
    AppMemories& app = ensure_app(row.app);
    UserMemories& user = app.users[row.user];
    user.by_id.emplace(row.id, &row);
    app.by_key.emplace(row.key, &row);
    app.terms.add(row);
    app.recall.put(row.key, row.terms, row.length);
    user.terms.add(row);
    index(row);
    to_feed_end(row);
    return row;
}

UserMemories& MemoryStore::user_of(const MemoryRec& row) {
    return apps_.find(row.app)->second.users.find(row.user)->second;
}

void MemoryStore::replace_text(MemoryRec& row, std::string_view text, std::string_view folded_text) {
    AppMemories& app = apps_.find(row.app)->second;
    UserMemories& user = user_of(row);
    app.terms.remove(row);
    user.terms.remove(row);
    row.set_text(text, folded_text);
    app.terms.add(row);
    app.recall.put(row.key, row.terms, row.length);
    user.terms.add(row);
}

void MemoryStore::fix_dimension(const MemoryRec& row) {
    AppMemories& app = ensure_app(row.app);
    if (app.dimension == 0 && !row.vector.empty()) app.dimension = static_cast<int64_t>(row.vector.size());
}

int64_t MemoryStore::wanted_dimension(std::string_view app, int64_t configured) {
    if (configured > 0) return configured;
    const AppMemories* found = find_app(app);
    return found ? found->dimension : 0;
}

void MemoryStore::index(MemoryRec& row) {
    UserMemories& memories = user_of(row);
    if (row.source_session)
        memories.by_source.emplace(std::make_pair(*row.source_session, row.source_seq), &row);
    else
        memories.by_text.emplace(text_key(row.name_space, row.folded_text), &row);
    memories.by_update.emplace(std::make_pair(row.updated_at_us, row.id), &row);
    if (row.expires_at_us > 0) expiring_.emplace(row.expires_at_us, row.key);
    if (row.embedding == MNEMO_EMBEDDING_PENDING) pending_.insert(row.key);
}

void MemoryStore::unindex(MemoryRec& row) {
    UserMemories& memories = user_of(row);
    if (row.source_session)
        erase_entry(memories.by_source, std::make_pair(*row.source_session, row.source_seq), &row);
    else
        erase_entry(memories.by_text, text_key(row.name_space, row.folded_text), &row);
    memories.by_update.erase(std::make_pair(row.updated_at_us, row.id));
    expiring_.erase(std::make_pair(row.expires_at_us, row.key));
    pending_.erase(row.key);
}

void MemoryStore::to_feed_end(MemoryRec& row) {
    if (row.change_seq > 0) feed_.erase(row.change_seq);
    row.change_seq = ++last_seq_;
    feed_.emplace(row.change_seq, FeedEntry{row.key, &row, {}, {}, 0});
}

void MemoryStore::remove(MemoryRec& row, int64_t removed_at_us) {
    unindex(row);
    feed_.erase(row.change_seq);
    const int64_t seq = ++last_seq_;
    feed_.emplace(seq, FeedEntry{row.key, nullptr, row.app, row.user, removed_at_us});
    removals_.emplace(removed_at_us, seq);
    AppMemories& app = apps_.find(row.app)->second;
    auto user = app.users.find(row.user);
    app.terms.remove(row);
    app.recall.erase(row.key);
    app.by_key.erase(row.key);
    user->second.terms.remove(row);
    user->second.by_id.erase(row.id);
    if (user->second.by_id.empty()) app.users.erase(user);
    rows_.erase(row.key);  // row dies here
}

void MemoryStore::drop_expired(std::string_view app, std::string_view user, std::string_view id, int64_t now_us) {
    UserMemories* memories = find_user(app, user);
    if (!memories) return;
    auto it = memories->by_id.find(id);
    if (it != memories->by_id.end() && !it->second->live(now_us)) remove(*it->second, it->second->expires_at_us);
}

int64_t MemoryStore::sweep_expired(int64_t now_us, int64_t limit, bool* hit) {
    int64_t done = 0;
    while (!expiring_.empty() && expiring_.begin()->first <= now_us) {
        if (done == limit) {
            *hit = true;
            break;
        }
        remove(*find_key(expiring_.begin()->second), now_us);
        ++done;
    }
    return done;
}

void MemoryStore::forget_removals(int64_t before_us, int64_t limit, bool* hit) {
    int64_t done = 0;
    while (!removals_.empty() && removals_.begin()->first < before_us) {
        if (done == limit) {
            *hit = true;
            break;
        }
        const int64_t seq = removals_.begin()->second;
        feed_.erase(seq);
        removals_.erase(removals_.begin());
        horizon_ = std::max(horizon_, seq);
        ++done;
    }
}

int64_t MemoryStore::remove_captured(std::string_view app, std::string_view user, std::string_view session_id,
                                     int64_t from_seq, int64_t created_since_us, int64_t now_us) {
    UserMemories* memories = find_user(app, user);
    if (!memories) return 0;
    const std::string session(session_id);
    std::vector<MemoryRec*> rows;
    for (auto it = memories->by_source.lower_bound({session, from_seq});
         it != memories->by_source.end() && it->first.first == session; ++it)
        if (it->second->created_at_us >= created_since_us) rows.push_back(it->second);
    for (MemoryRec* row : rows) remove(*row, now_us);  // may drop the user's entry with the last row
    return static_cast<int64_t>(rows.size());
}

int64_t MemoryStore::purge_user(std::string_view app, std::string_view user, int64_t now_us) {
    UserMemories* memories = find_user(app, user);
    if (!memories) return 0;
    std::vector<MemoryRec*> rows;
    for (const auto& [id, row] : memories->by_id) rows.push_back(row);
    for (MemoryRec* row : rows) remove(*row, now_us);  // the last removal drops the user's entry
    return static_cast<int64_t>(rows.size());
}

}  // namespace mnemo::memory
