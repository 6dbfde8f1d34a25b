#include "session_index.h"

namespace mnemo::memory {

// "a lists before b": newer first, then larger id, then larger user.
bool ListOrder::operator()(const ListKey& a, const ListKey& b) const {
    if (a.updated_at_us != b.updated_at_us) return a.updated_at_us > b.updated_at_us;
    if (a.id != b.id) return a.id > b.id;
    return a.user > b.user;
}

bool ListOrder::operator()(const ListKey& a, const ListCursor& b) const {
    if (a.updated_at_us != b.updated_at_us) return a.updated_at_us > b.updated_at_us;
    return std::string_view(a.id) > b.id;
}

bool ListOrder::operator()(const ListCursor& a, const ListKey& b) const {
    if (a.updated_at_us != b.updated_at_us) return a.updated_at_us > b.updated_at_us;
    return a.id > std::string_view(b.id);
}

}  // namespace mnemo::memory
