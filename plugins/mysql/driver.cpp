#include "driver.h"

#include <mysql_driver.h>

#include <mutex>

namespace mnemo::mysql {
namespace {

sql::Driver* shared_driver() {
    static std::once_flag once;
    static sql::Driver* instance = nullptr;
    std::call_once(once, [] { instance = sql::mysql::get_mysql_driver_instance(); });
    return instance;
}

// No threadEnd() when the thread ends: a thread may outlive the driver, which
// the connector destroys with its static objects at process exit. mnemod's
// worker threads live as long as the process, so nothing accumulates.
struct ThreadRegistration {
    explicit ThreadRegistration(sql::Driver* driver) { driver->threadInit(); }
};

}  // namespace

sql::Driver& driver() {
    sql::Driver* instance = shared_driver();
    thread_local ThreadRegistration registration(instance);
    return *instance;
}

}  // namespace mnemo::mysql
