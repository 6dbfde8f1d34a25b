/*
 * mcp/session_table.h -- the live MCP sessions (Mcp-Session-Id).
 *
 * Owns which session ids exist, whom each belongs to and when each goes:
 * an id is valid only for the app, user and Authorization header that
 * opened it; an id idle longer than the idle limit is forgotten; past the
 * size limit the least recently used goes first. Both limits come with
 * each call, so a reloaded config applies at once. Ids are 128 random bits
 * in hex. MCP sessions are not conversations: the table lives in memory
 * and a restart forgets it. Loop thread only.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::mcp {

// Who opened a session: a later request must match it whole.
struct SessionOwner {
    std::string app, user;
    std::string authorization;  // the Authorization header as sent ("" when none)
    bool operator==(const SessionOwner&) const = default;
};

struct SessionLimits {
    size_t max_sessions = 10000;
    int64_t idle_us = 0;  // 0: sessions never go idle
};

class SessionTable {
public:
    // A new session; returns its id. May forget the least recently used one.
    std::string open(SessionOwner owner, std::string protocol_version, int64_t now_us, const SessionLimits& limits);
    // The session's protocol version, marking it used; nullptr when the id is
    // unknown, idle too long, or belongs to another owner.
    const std::string* use(std::string_view id, const SessionOwner& owner, int64_t now_us, const SessionLimits& limits);
    // Ends a session; false when use() would not have found it.
    bool close(std::string_view id, const SessionOwner& owner, int64_t now_us, const SessionLimits& limits);
    size_t size() const { return by_id_.size(); }

private:
    struct Session {
        std::string id;
        SessionOwner owner;
        std::string protocol_version;
        int64_t last_used_us = 0;
    };
    using List = std::list<Session>;  // most recently used first
    void forget_idle(int64_t now_us, const SessionLimits& limits);
    List::iterator find(std::string_view id, const SessionOwner& owner, int64_t now_us, const SessionLimits& limits);

    List sessions_;
    std::unordered_map<std::string_view, List::iterator> by_id_;  // keys view Session::id
};

// 32 hex characters of a cryptographic random source.
std::string random_session_id();

}  // namespace mnemo::mcp
