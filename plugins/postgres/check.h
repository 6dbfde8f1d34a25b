// check.h -- the postgres backend's look at its database for
// `mnemod --check-config` (sql/server_check.h): connects and logs in as the
// pool would, then reads the encoding, the schema version and, when the
// schema is still to be made, whether the user may create it; creates and
// migrates nothing. A refused connection names the option at fault from the
// SQLSTATE the server answered (wrong password, unknown role or database),
// or, with none, from libpq's own failure (no password given; the server not
// reached: host and port).
#pragma once

#include <string>

namespace mnemo::postgres {

// What was found; throws sqlcore::CheckFailure naming the option at fault.
std::string check(const char* options_json);

}  // namespace mnemo::postgres
