#include "mcp/session_table.h"

#include <sys/random.h>

#include <array>
#include <random>

namespace mnemo::mcp {

std::string random_session_id() {
    std::array<unsigned char, 16> bytes{};
    if (getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
        std::random_device device;  // /dev/urandom on Linux
        for (auto& byte : bytes) byte = static_cast<unsigned char>(device());
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id;
    id.reserve(bytes.size() * 2);
    for (unsigned char byte : bytes) {
        id.push_back(kHex[byte >> 4]);
        id.push_back(kHex[byte & 15]);
    }
    return id;
}

void SessionTable::forget_idle(int64_t now_us, const SessionLimits& limits) {
    if (limits.idle_us <= 0) return;
    // The list is ordered by last use, so the idle ones are all at its end.
    while (!sessions_.empty() && now_us - sessions_.back().last_used_us > limits.idle_us) {
        by_id_.erase(sessions_.back().id);
        sessions_.pop_back();
    }
}

std::string SessionTable::open(SessionOwner owner, std::string protocol_version, int64_t now_us,
                               const SessionLimits& limits) {
    forget_idle(now_us, limits);
    size_t max_sessions = limits.max_sessions > 0 ? limits.max_sessions : 1;
    while (sessions_.size() >= max_sessions) {
        by_id_.erase(sessions_.back().id);
        sessions_.pop_back();
    }
    std::string id;
    do {
        id = random_session_id();
    } while (by_id_.count(id) > 0);
    sessions_.push_front(Session{std::move(id), std::move(owner), std::move(protocol_version), now_us});
    by_id_.emplace(sessions_.front().id, sessions_.begin());
    return sessions_.front().id;
}

SessionTable::List::iterator SessionTable::find(std::string_view id, const SessionOwner& owner, int64_t now_us,
                                                const SessionLimits& limits) {
    forget_idle(now_us, limits);
    auto found = by_id_.find(id);
    if (found == by_id_.end() || !(found->second->owner == owner)) return sessions_.end();
    return found->second;
}

const std::string* SessionTable::use(std::string_view id, const SessionOwner& owner, int64_t now_us,
                                     const SessionLimits& limits) {
    auto session = find(id, owner, now_us, limits);
    if (session == sessions_.end()) return nullptr;
    session->last_used_us = now_us;
    sessions_.splice(sessions_.begin(), sessions_, session);
    return &session->protocol_version;
}

bool SessionTable::close(std::string_view id, const SessionOwner& owner, int64_t now_us, const SessionLimits& limits) {
    auto session = find(id, owner, now_us, limits);
    if (session == sessions_.end()) return false;
    by_id_.erase(session->id);
    sessions_.erase(session);
    return true;
}

}  // namespace mnemo::mcp
