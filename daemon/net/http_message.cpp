#include "net/http_message.h"

namespace mnemo::net {

const std::string* Request::header(std::string_view lower_name) const {
    for (const auto& [name, value] : headers) {
        if (name == lower_name) return &value;
    }
    return nullptr;
}

}  // namespace mnemo::net
