#include "postgres_backend.h"

#include "backend/backend_fixture.h"
#include "core/plugin_host.h"

namespace mnemo::postgres::test {
namespace {

// Starts the server before the first test and stops it after the last.
class ServerEnvironment : public ::testing::Environment {
public:
    void SetUp() override { postgres_fixture::shared_server(); }
    void TearDown() override { postgres_fixture::stop_shared_server(); }
};
[[maybe_unused]] ::testing::Environment* const environment = ::testing::AddGlobalTestEnvironment(new ServerEnvironment);

}  // namespace

const mnemo_storage_ops& ops() {
    return *backend_test::plugin("mnemo_postgres.so").ops;
}

postgres_fixture::PostgresServer& server() {
    return postgres_fixture::shared_server();
}

int open_status(const std::string& options_json, mnemo_error& err) {
    mnemo_backend* backend = nullptr;
    int rc = ops().open(&mnemo::core::plugin_host(), options_json.c_str(), &backend, &err);
    if (backend) ops().close(backend);
    return rc;
}

Backend::Backend(const std::string& database) {
    mnemo_error err{};
    std::string options = server().plugin_options(database);
    if (ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend_, &err) != MNEMO_OK) {
        ADD_FAILURE() << "open: " << err.message;
        backend_ = nullptr;
    }
}

Backend::~Backend() {
    if (backend_) ops().close(backend_);
}

Answer Backend::create(const std::string& id) {
    return backend_test::create_session(ops(), backend_, key(id));
}

AppendAnswer Backend::append(const std::string& id, const std::string& text) {
    backend_test::EventSpec event;
    event.content = R"({"text":")" + text + R"("})";
    event.search_text = text;
    return backend_test::append_events(ops(), backend_, key(id), {event});
}

Answer Backend::get(const std::string& id) {
    return backend_test::get_session(ops(), backend_, key(id));
}

Answer Backend::ping() {
    Answer answer;
    answer.rc = ops().ping(backend_, &answer.err);
    return answer;
}

}  // namespace mnemo::postgres::test
