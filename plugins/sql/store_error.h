// store_error.h -- the one exception type of the SQL backends. Operations
// throw it with an ABI status code; the plugin entry points turn it into a
// mnemo_error. Code MNEMO_E_BUSY (sqlite: the file is locked; mysql: a
// deadlock, a lock wait timeout, a lost insert race) never reaches the host:
// the store runs the write again and answers MNEMO_E_UNAVAILABLE once its
// retries are spent. A backend's connection classifies its engine's errors
// (duplicate_key: a unique key refused the row).
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mnemo::sqlcore {

class StoreError : public std::runtime_error {
public:
    enum class Cause { Other, DuplicateKey };
    StoreError(int code, const std::string& message, int64_t current_version = -1, Cause cause = Cause::Other)
        : std::runtime_error(message), code_(code), current_version_(current_version), cause_(cause) {}
    int code() const { return code_; }
    int64_t current_version() const { return current_version_; }
    bool duplicate_key() const { return cause_ == Cause::DuplicateKey; }

private:
    int code_;
    int64_t current_version_;
    Cause cause_;
};

}  // namespace mnemo::sqlcore
