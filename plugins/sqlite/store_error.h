// store_error.h -- the one exception type of the sqlite backend. Operations
// throw it with an ABI status code; the plugin entry points turn it into a
// mnemo_error. Code MNEMO_E_BUSY never reaches the host: retry.h turns it
// into MNEMO_E_UNAVAILABLE once the retries are spent.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mnemo::sqlite {

class StoreError : public std::runtime_error {
public:
    StoreError(int code, const std::string& message, int64_t current_version = -1)
        : std::runtime_error(message), code_(code), current_version_(current_version) {}
    int code() const { return code_; }
    int64_t current_version() const { return current_version_; }

private:
    int code_;
    int64_t current_version_;
};

}  // namespace mnemo::sqlite
