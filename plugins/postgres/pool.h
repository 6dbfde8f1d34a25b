// pool.h -- the backend's connections to the server (sql/server_pool.h).
#pragma once

#include "connection.h"
#include "options.h"
#include "server_pool.h"

namespace mnemo::postgres {

using Pool = sqlcore::ServerPool<Conn, Options>;
using Lease = sqlcore::ServerLease<Pool, Conn>;

}  // namespace mnemo::postgres
