// The mysql plugin as the host of the shared backend tests (server_host.h).
#include "backend/server_host.h"
#include "mysql_backend.h"

namespace mnemo::backend_test {

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<ServerHost<std::remove_reference_t<decltype(mysql::test::server())>>>(mysql::test::server(),
                                                                                              mysql::test::ops());
}

}  // namespace mnemo::backend_test
