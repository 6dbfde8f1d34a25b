// driver.h -- the process-wide Connector/C++ driver. Creating it is not
// thread-safe and every thread that talks to the server must be registered
// with the client library; driver() does both, once per process and once
// per calling thread.
#pragma once

namespace sql {
class Driver;
}

namespace mnemo::mysql {

sql::Driver& driver();

}  // namespace mnemo::mysql
