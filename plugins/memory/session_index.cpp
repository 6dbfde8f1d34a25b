#include "session_index.h"

namespace mnemo::memory {

namespace {

// "a lists before b": newer first, then larger user, then larger id.
bool lists_before(int64_t a_at, std::string_view a_user, std::string_view a_id, int64_t b_at, std::string_view b_user,
                  std::string_view b_id) {
    if (a_at != b_at) return a_at > b_at;
    if (a_user != b_user) return a_user > b_user;
    return a_id > b_id;
}

}  // namespace

bool ListOrder::operator()(const ListKey& a, const ListKey& b) const {
    return lists_before(a.updated_at_us, a.user, a.id, b.updated_at_us, b.user, b.id);
}

bool ListOrder::operator()(const ListKey& a, const ListCursor& b) const {
    return lists_before(a.updated_at_us, a.user, a.id, b.updated_at_us, b.user, b.id);
}

bool ListOrder::operator()(const ListCursor& a, const ListKey& b) const {
    return lists_before(a.updated_at_us, a.user, a.id, b.updated_at_us, b.user, b.id);
}

}  // namespace mnemo::memory
