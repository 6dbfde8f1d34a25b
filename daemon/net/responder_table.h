#pragma once
// Lets a Responder reach its connection without owning it. Each live
// connection holds a slot in a per-thread table; a Responder captures the
// slot index, the slot's generation and the request's sequence number. When
// the connection closes the generation moves on, so a late Responder finds
// nothing and drops its response. The capture is 16 trivially copyable bytes,
// which std::function stores inline: making a Responder allocates nothing.

#include <cstdint>

#include "net/http_message.h"

namespace mnemo::net {

class Connection;

struct ResponderKey {
    uint32_t index = 0;
    uint32_t generation = 0;
};

ResponderKey register_connection(Connection& connection);
void unregister_connection(ResponderKey key);
// The Responder for request `seq` of the connection behind `key`. Must be called
// on the loop thread that registered the connection; elsewhere it finds nothing.
Responder make_responder(ResponderKey key, uint64_t seq);

}  // namespace mnemo::net
