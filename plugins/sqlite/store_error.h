// store_error.h -- the one exception type of the sqlite backend. Operations
// throw it with an ABI status code; the plugin entry points turn it into a
// mnemo_error, and the writer thread uses it to roll back one request's
// savepoint without touching the rest of its group.
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
    // Domain errors undo only their own request; the others mean the storage failed.
    bool is_domain() const {
        return code_ == MNEMO_E_NOT_FOUND || code_ == MNEMO_E_EXISTS || code_ == MNEMO_E_CONFLICT ||
               code_ == MNEMO_E_INVALID || code_ == MNEMO_E_TOO_LARGE;
    }

private:
    int code_;
    int64_t current_version_;
};

}  // namespace mnemo::sqlite
