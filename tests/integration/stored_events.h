/*
 * stored_events.h -- reading back what a session holds, for the tests that
 * compare it with what clients were told (the SIGKILL durability tests and
 * the crash soak).
 *
 * Owns the paging read of a session's visible events (GET .../events in
 * pages of 1,000), the session's event_count, and the seqs an append answer
 * acknowledged.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::integration {

struct StoredEvent {
    std::string id;
    int64_t seq = 0;
    std::string text;  // content.text when the content is an object with a string text; else empty
};

// .../sessions/<session>/events under shop/u1.
std::string events_path(const std::string& session);
// Every visible event of the session, oldest first; on failure *error says which read failed and why.
std::vector<StoredEvent> read_events(int port, const std::string& session, std::string* error);
// The session's event_count; nullopt when the session cannot be read.
std::optional<int64_t> event_count(int port, const std::string& session);
// The seqs of an append answer's "appended" array, in order; empty when the body has none.
std::vector<int64_t> appended_seqs(const std::string& body);

}  // namespace mnemo::integration
