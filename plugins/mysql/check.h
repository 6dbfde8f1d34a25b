// check.h -- the mysql backend's look at its database for
// `mnemod --check-config` (sql/server_check.h): connects and logs in as the
// pool would, then reads the schema version when the database has one;
// creates and migrates nothing. A refused connection names the option its
// error number points at (access denied: password; unknown database:
// database; the server not reached: host, or socket when one is set).
#pragma once

#include <string>

namespace mnemo::mysql {

// What was found; throws sqlcore::CheckFailure naming the option at fault.
std::string check(const char* options_json);

}  // namespace mnemo::mysql
