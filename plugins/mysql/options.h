// options.h -- the mysql backend's storage.options, parsed from the flat JSON
// object mnemod hands to open() (CONFIG.md; connect_timeout arrives as
// connect_timeout_ms). Missing keys take the defaults below; unknown keys and
// wrong types are refused with the key's name.
#pragma once

#include <cstdint>
#include <string>

namespace mnemo::mysql {

struct Options {
    std::string host = "127.0.0.1";
    int64_t port = 3306;
    std::string socket;  // non-empty: connect through this unix socket, host and port unused
    std::string user = "mnemo";
    std::string password;
    std::string database = "mnemo";
    int64_t pool_size = 8;
    int64_t connect_timeout_ms = 5000;
    bool tls = false;

    // "unix:/run/mysqld.sock/mnemo" or "127.0.0.1:3306/mnemo", for messages.
    std::string where() const;
};

// Throws StoreError(MNEMO_E_INVALID) naming the offending key.
Options parse_options(const char* options_json);

}  // namespace mnemo::mysql
