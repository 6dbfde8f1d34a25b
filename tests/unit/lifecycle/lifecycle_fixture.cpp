#include "lifecycle_fixture.h"

#include "core/plugin_host.h"
#include "storage/plugin_loader.h"

#ifdef MNEMO_LIFECYCLE_MYSQL
#include "mariadb_server.h"
#endif

#include <simdjson.h>

#include <filesystem>
#include <thread>

namespace mnemo::lifecycle {

LifecycleTest::LifecycleTest() {
    uv_loop_init(&loop_);
    char tmpl[] = "/tmp/mnemo-lifecycle-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    callbacks_.add([this](const storage::SessionRow& session, core::FinalizeReason reason) {
        calls_.push_back({session.id, reason});
        if (hook_delay_.count() > 0) std::this_thread::sleep_for(hook_delay_);
        return hook_ok_;
    });
}

#ifdef MNEMO_LIFECYCLE_MYSQL
namespace {

class StopMariadbAtExit : public ::testing::Environment {
public:
    void TearDown() override { mysql_fixture::stop_shared_server(); }
};
const auto* const kStopMariadb = ::testing::AddGlobalTestEnvironment(new StopMariadbAtExit);

}  // namespace
#endif

std::vector<std::string> persistent_backends() {
#ifdef MNEMO_LIFECYCLE_MYSQL
    return {"sqlite", "mysql"};
#else
    return {"sqlite"};
#endif
}

LifecycleTest::~LifecycleTest() {
    close();
    uv_loop_close(&loop_);
    std::filesystem::remove_all(dir_);
#ifdef MNEMO_LIFECYCLE_MYSQL
    if (!database_.empty()) mysql_fixture::shared_server().drop_database(database_);
#endif
}

std::string LifecycleTest::storage_yaml() {
    std::string yaml = "storage:\n  plugin: " + GetParam() + "\n";
    if (GetParam() == "sqlite") return yaml + "  options: {path: " + dir_ + "/mnemo.db}\n";
#ifdef MNEMO_LIFECYCLE_MYSQL
    if (GetParam() == "mysql") {
        auto& server = mysql_fixture::shared_server();
        if (database_.empty()) database_ = server.create_database("lifecycle");
        return yaml + "  options: " + server.yaml_options(database_, 2) + "\n";
    }
#endif
    return yaml;
}

void LifecycleTest::close() {
    if (sweeper_) sweeper_->close();
    uv_run(&loop_, UV_RUN_DEFAULT);
    sweeper_.reset();
    backend_.reset();
    // Destroying the sweeper closes its executor's wake-up handle: the close
    // completes (and frees the handle) only on a turn of the loop.
    uv_run(&loop_, UV_RUN_DEFAULT);
}

void LifecycleTest::open(const std::string& extra_yaml) {
    close();
    std::string yaml = "server: {admin_socket: " + dir_ + "/admin.sock}\n" + storage_yaml() + extra_yaml;
    auto loaded = config::load_string(yaml, "lifecycle.yaml", dir_);
    ASSERT_TRUE(loaded.config) << (loaded.errors.empty() ? "?" : loaded.errors.front());
    config_ = loaded.config;
    auto plugin = storage::load_plugin(GetParam(), MNEMO_BUILD_PLUGIN_DIR);
    ASSERT_TRUE(plugin.plugin) << plugin.error;
    if (ops_tweak_ || added_capabilities_ != 0) {
        tweaked_ops_ = *plugin.plugin->descriptor->ops;
        if (ops_tweak_) ops_tweak_(tweaked_ops_);
        tweaked_descriptor_ = *plugin.plugin->descriptor;
        tweaked_descriptor_.ops = &tweaked_ops_;
        tweaked_descriptor_.capabilities |= added_capabilities_;
        plugin.plugin->descriptor = &tweaked_descriptor_;
    }
    std::string error;
    backend_ =
        storage::Backend::open(std::move(plugin.plugin), core::plugin_host(), config_->storage.options_json, &error);
    ASSERT_TRUE(backend_) << error;
    sweeper_ = std::make_unique<Sweeper>(&loop_, *backend_, clock_, metrics_, callbacks_, inbox_, config_);
}

void LifecycleTest::sweep() {
    bool done = false;
    sweeper_->sweep_now([&done] { done = true; });
    while (!done) uv_run(&loop_, UV_RUN_ONCE);
}

void LifecycleTest::create(const std::string& id, const std::string& user, std::optional<int64_t> ttl_seconds) {
    core::CreateSessionInput in;
    in.app = "shop";
    in.user = user;
    in.id = id;
    in.ttl_seconds = ttl_seconds;
    auto outcome = core::create_session(env(), in);
    ASSERT_FALSE(outcome.error) << outcome.error->message;
}

bool LifecycleTest::readable(const std::string& id, const std::string& user) {
    core::GetSessionInput in;
    in.ref = core::SessionRef{"shop", user, id};
    return !core::get_session(env(), in).error;
}

std::string LifecycleTest::resolve(const std::string& lane, const std::string& user) {
    core::ResolveLaneInput in;
    in.ref = core::LaneRef{"shop", lane};
    in.user = user;
    auto outcome = core::resolve_lane(env(), in);
    EXPECT_FALSE(outcome.error) << outcome.error->message;
    return field(outcome.body, "/session/id");
}

core::Outcome LifecycleTest::lane(const std::string& lane) {
    return core::get_lane(env(), core::LaneRef{"shop", lane});
}

uint64_t LifecycleTest::swept(const std::string& kind) const {
    std::string text = metrics_.render({});
    std::string key = "mnemo_swept_total{kind=\"" + kind + "\"} ";
    auto at = text.find(key);
    return at == std::string::npos ? 0 : std::stoull(text.substr(at + key.size()));
}

int LifecycleTest::calls_for(const std::string& id) const {
    int n = 0;
    for (const auto& call : calls_) n += call.id == id ? 1 : 0;
    return n;
}

std::string field(const std::string& json, const char* pointer) {
    simdjson::dom::parser parser;
    std::string_view out;
    if (parser.parse(json).at_pointer(pointer).get_string().get(out) != simdjson::SUCCESS) return "";
    return std::string(out);
}

int64_t number(const std::string& json, const char* pointer) {
    simdjson::dom::parser parser;
    int64_t out = -1;
    if (parser.parse(json).at_pointer(pointer).get_int64().get(out) != simdjson::SUCCESS) return -1;
    return out;
}

bool flag(const std::string& json, const char* pointer) {
    simdjson::dom::parser parser;
    bool out = false;
    EXPECT_EQ(parser.parse(json).at_pointer(pointer).get_bool().get(out), simdjson::SUCCESS) << pointer << json;
    return out;
}

}  // namespace mnemo::lifecycle
