#include "harness.h"

#include "core/plugin_host.h"
#include "storage/plugin_loader.h"

#ifdef MNEMO_CONFORMANCE_MYSQL
#include "mariadb_server.h"
#endif
#ifdef MNEMO_CONFORMANCE_POSTGRES
#include "postgres_server.h"
#endif

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace mnemo::testing {

simdjson::dom::element Reply::json() const {
    if (!parsed_) {
        parser_ = std::make_shared<simdjson::dom::parser>();
        auto error = parser_->parse(body).get(root_);
        EXPECT_EQ(error, simdjson::SUCCESS) << "body is not JSON: " << body;
        parsed_ = true;
    }
    return root_;
}

namespace {
simdjson::dom::element at(const Reply& reply, std::string_view pointer) {
    simdjson::dom::element value;
    auto error = reply.json().at_pointer(pointer).get(value);
    EXPECT_EQ(error, simdjson::SUCCESS) << "no " << pointer << " in " << reply.body;
    return value;
}
}  // namespace

int64_t Reply::integer(std::string_view pointer) const {
    int64_t out = -999999;
    EXPECT_EQ(at(*this, pointer).get_int64().get(out), simdjson::SUCCESS) << pointer << " in " << body;
    return out;
}

std::string Reply::string(std::string_view pointer) const {
    std::string_view out;
    EXPECT_EQ(at(*this, pointer).get_string().get(out), simdjson::SUCCESS) << pointer << " in " << body;
    return std::string(out);
}

bool Reply::boolean(std::string_view pointer) const {
    bool out = false;
    EXPECT_EQ(at(*this, pointer).get_bool().get(out), simdjson::SUCCESS) << pointer << " in " << body;
    return out;
}

bool Reply::is_null(std::string_view pointer) const {
    return at(*this, pointer).is_null();
}

bool Reply::has(std::string_view pointer) const {
    simdjson::dom::element value;
    return json().at_pointer(pointer).get(value) == simdjson::SUCCESS;
}

size_t Reply::size(std::string_view pointer) const {
    simdjson::dom::array array;
    EXPECT_EQ(at(*this, pointer).get_array().get(array), simdjson::SUCCESS) << pointer << " in " << body;
    return array.size();
}

namespace {

std::string sorted_object(simdjson::dom::element element) {
    simdjson::dom::object object;
    if (element.get_object().get(object) != simdjson::SUCCESS) return "not an object: " + simdjson::minify(element);
    std::map<std::string, std::string> members;
    for (auto [key, value] : object) members[std::string(key)] = simdjson::minify(value);
    std::string out = "{";
    for (const auto& [key, value] : members) {
        if (out.size() > 1) out += ",";
        out += "\"";
        for (char c : key) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += "\":" + value;
    }
    return out + "}";
}

}  // namespace

std::string Reply::object(std::string_view pointer) const {
    return sorted_object(at(*this, pointer));
}

std::string canonical(std::string_view json) {
    simdjson::dom::parser parser;
    simdjson::dom::element element;
    if (parser.parse(simdjson::padded_string(json)).get(element) != simdjson::SUCCESS) {
        ADD_FAILURE() << "expected value is not JSON: " << json;
        return {};
    }
    return sorted_object(element);
}

std::string Reply::header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
        if (key.size() == name.size() && std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
            })) {
            return value;
        }
    }
    return "";
}

std::string Reply::raw(std::string_view pointer) const {
    return simdjson::minify(at(*this, pointer));
}

namespace {

#ifdef MNEMO_CONFORMANCE_MYSQL
// The mysql backend runs against one private MariaDB per process (started by
// the environment below when "mysql" is under test); each Harness starts
// from an emptied database.
std::string mysql_database;

class MysqlEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        auto backends = backends_under_test();
        if (std::find(backends.begin(), backends.end(), "mysql") == backends.end()) return;
        mysql_database = mysql_fixture::shared_server().create_database("conformance");
    }
    void TearDown() override { mysql_fixture::stop_shared_server(); }
};
[[maybe_unused]] ::testing::Environment* const mysql_environment =
    ::testing::AddGlobalTestEnvironment(new MysqlEnvironment);
#endif

#ifdef MNEMO_CONFORMANCE_POSTGRES
// The postgres backend likewise, against one private PostgreSQL per process.
std::string postgres_database;

class PostgresEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        auto backends = backends_under_test();
        if (std::find(backends.begin(), backends.end(), "postgres") == backends.end()) return;
        postgres_database = postgres_fixture::shared_server().create_database("conformance");
    }
    void TearDown() override { postgres_fixture::stop_shared_server(); }
};
[[maybe_unused]] ::testing::Environment* const postgres_environment =
    ::testing::AddGlobalTestEnvironment(new PostgresEnvironment);
#endif

std::string options_for(const std::string& backend, const std::string& dir) {
    if (backend == "sqlite") return R"({"path":")" + dir + R"(/mnemo.db","synchronous":"normal","readers":2})";
#ifdef MNEMO_CONFORMANCE_MYSQL
    if (backend == "mysql") {
        mysql_fixture::shared_server().clear_database(mysql_database);
        return mysql_fixture::shared_server().plugin_options(mysql_database);
    }
#endif
#ifdef MNEMO_CONFORMANCE_POSTGRES
    if (backend == "postgres") {
        postgres_fixture::shared_server().clear_database(postgres_database);
        return postgres_fixture::shared_server().plugin_options(postgres_database);
    }
#endif
    return "{}";
}

}  // namespace

namespace {

// Filtered recall scans a set of at most this many memories exactly; small,
// so a test reaches the growing graph search with a handful of memories.
constexpr size_t kHarnessExactScanMax = 3;

}  // namespace

Harness::Harness(const std::string& backend, const std::string& extra_yaml) : clock_(1'790'000'000'000'000) {
    uv_loop_init(&loop_);
    char tmpl[] = "/tmp/mnemo-conformance-XXXXXX";
    data_dir_ = ::mkdtemp(tmpl);
    std::string yaml = "storage:\n  plugin: " + backend + "\n" + extra_yaml;
    auto loaded = config::load_string(yaml, "conformance.yaml", data_dir_);
    if (!loaded.config) {
        ADD_FAILURE() << "config: " << (loaded.errors.empty() ? "?" : loaded.errors.front());
        return;
    }
    auto plugin = storage::load_plugin(backend, MNEMO_BUILD_PLUGIN_DIR);
    if (!plugin.plugin) {
        ADD_FAILURE() << plugin.error;
        return;
    }
    std::string error;
    backend_ =
        storage::Backend::open(std::move(plugin.plugin), core::plugin_host(), options_for(backend, data_dir_), &error);
    if (!backend_) {
        ADD_FAILURE() << error;
        return;
    }
    config_ = loaded.config;
    api_ = std::make_unique<api::Api>(&loop_, *backend_, loaded.config, clock_, metrics_);
    if (backend_->memories()) {
        memory::MemoryIndexOptions options;
        options.vectors.exact_scan_max = kHarnessExactScanMax;
        index_ = std::make_unique<memory::MemoryIndex>(*backend_, options);
        index_->start();
        memory_links_.index = index_.get();
        memory_links_.exact_scan_max = kHarnessExactScanMax;
        api_->set_memory(&memory_links_);
    }
}

Harness::~Harness() {
    api_.reset();
    uv_run(&loop_, UV_RUN_DEFAULT);
    if (index_) index_->stop();
    index_.reset();
    backend_.reset();
    uv_loop_close(&loop_);
    std::filesystem::remove_all(data_dir_);
}

Reply Harness::call(const std::string& method, const std::string& path, const std::string& body,
                    std::vector<std::pair<std::string, std::string>> headers) {
    Reply reply;
    if (!api_) return reply;
    net::Request request;
    request.method = method;
    request.target = path;
    auto q = path.find('?');
    request.path = path.substr(0, q);
    request.query = q == std::string::npos ? "" : path.substr(q + 1);
    request.body = body;
    request.request_id = "test";
    for (auto& [name, value] : headers) request.headers.emplace_back(name, value);
    bool answered = false;
    api_->handle(std::move(request), [&](net::Response&& response) {
        reply.status = response.status;
        reply.body = std::move(response.body);
        reply.headers = std::move(response.headers);
        answered = true;
    });
    while (!answered) uv_run(&loop_, UV_RUN_ONCE);
    return reply;
}

void Conformance::create(const std::string& id, const std::string& body_extra) {
    std::string body = R"({"id":")" + id + "\"" + (body_extra.empty() ? "" : "," + body_extra) + "}";
    auto reply = h->post(sessions(), body);
    ASSERT_EQ(reply.status, 201) << reply.body;
}

Reply Conformance::append(const std::string& id, const std::string& events_json, const std::string& extra) {
    auto reply =
        h->post(session(id) + "/events", R"({"events":)" + events_json + (extra.empty() ? "" : "," + extra) + "}");
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply;
}

Reply Conformance::say(const std::string& id, const std::string& text, const std::string& author) {
    return append(id, R"([{"author":")" + author + R"(","content":{"text":")" + text + R"("}}])");
}

SessionSnapshot Conformance::snapshot(const std::string& id, const std::string& app, const std::string& user) {
    SessionSnapshot out;
    auto reply = h->get(session(id, app, user) + "?num_recent_events=0");
    EXPECT_EQ(reply.status, 200) << reply.body;
    if (reply.status != 200) return out;
    out.version = reply.integer("/session/version");
    out.event_count = reply.integer("/session/event_count");
    out.state = reply.object("/session/state");
    out.usage = reply.raw("/session/usage");
    return out;
}

void Conformance::expect_unchanged(const std::string& id, const SessionSnapshot& before) {
    auto after = snapshot(id);
    EXPECT_EQ(after.version, before.version) << "version changed after a rejected request";
    EXPECT_EQ(after.event_count, before.event_count) << "event_count changed after a rejected request";
    EXPECT_EQ(after.state, before.state) << "state changed after a rejected request";
    EXPECT_EQ(after.usage, before.usage) << "usage changed after a rejected request";
}

void expect_error(const Reply& reply, int status, const std::string& code) {
    EXPECT_EQ(reply.status, status) << reply.body;
    if (reply.status < 400) return;
    EXPECT_EQ(reply.error_code(), code) << reply.body;
    EXPECT_FALSE(reply.string("/error/message").empty()) << reply.body;
    simdjson::dom::object details;
    EXPECT_EQ(reply.json().at_pointer("/error/details").get_object().get(details), simdjson::SUCCESS)
        << "error.details is not an object: " << reply.body;
}

std::vector<std::string> backends_under_test() {
    const char* env = std::getenv("MNEMO_CONFORMANCE_BACKENDS");
    std::string list = env ? env : "memory,sqlite";
    std::vector<std::string> out;
    size_t start = 0;
    while (start < list.size()) {
        size_t comma = list.find(',', start);
        out.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::vector<std::string> transfer_partners(const std::string& backend) {
    std::vector<std::string> partners;
    for (const std::string& kind : {std::string("memory"), std::string("sqlite")})
        if (kind != backend) partners.push_back(kind);
    for (const std::string& kind : backends_under_test())
        if (kind != backend && std::find(partners.begin(), partners.end(), kind) == partners.end())
            partners.push_back(kind);
    return partners;
}

}  // namespace mnemo::testing
