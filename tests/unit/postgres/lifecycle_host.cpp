// The postgres plugin as the host of the shared backend tests (server_host.h).
#include "backend/server_host.h"
#include "postgres_backend.h"

namespace mnemo::backend_test {

std::unique_ptr<BackendHost> make_backend_host() {
    return std::make_unique<ServerHost<std::remove_reference_t<decltype(postgres::test::server())>>>(postgres::test::server(),
                                                                                              postgres::test::ops());
}

}  // namespace mnemo::backend_test
