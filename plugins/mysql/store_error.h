// store_error.h -- the one exception type of the mysql backend. Operations
// throw it with an ABI status code; the plugin entry points turn it into a
// mnemo_error. Code MNEMO_E_BUSY (a deadlock, a lock wait timeout, a lost
// insert race) never reaches the host: the store retries the whole
// transaction and answers MNEMO_E_UNAVAILABLE once the retries are spent.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mnemo::mysql {

class StoreError : public std::runtime_error {
public:
    StoreError(int code, const std::string& message, int64_t current_version = -1, int server_error = 0)
        : std::runtime_error(message), code_(code), current_version_(current_version), server_error_(server_error) {}
    int code() const { return code_; }
    int64_t current_version() const { return current_version_; }
    // The server's or client library's error number (1062: duplicate key), 0
    // when the error is the backend's own.
    int server_error() const { return server_error_; }

private:
    int code_;
    int64_t current_version_;
    int server_error_;
};

}  // namespace mnemo::mysql
