#include "host_rules.h"

namespace mnemo::memory {

bool holds_verbatim(std::string_view text, const RecallQuery& query) {
    return host::matches(query.parsed, text);
}

bool member_equals(std::string_view object_json, std::string_view key, std::string_view value_json) {
    return host::json_member_equals(object_json, key, value_json);
}

}  // namespace mnemo::memory
