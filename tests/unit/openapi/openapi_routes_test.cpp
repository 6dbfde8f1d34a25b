// docs/openapi.yaml describes exactly the routes the daemon serves: a route
// added to the router (or the MCP endpoint) without a description, or a
// description of a route that is gone, fails here.
#include "api/api.h"
#include "api/openapi.h"
#include "config/config.h"
#include "core/plugin_host.h"
#include "mcp/endpoint.h"
#include "storage/plugin_loader.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

namespace mnemo {
namespace {

using RouteSet = std::set<std::pair<std::string, std::string>>;

const std::string kDescription = std::string(MNEMO_SOURCE_DIR) + "/docs/openapi.yaml";

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

RouteSet described_routes() {
    RouteSet out;
    YAML::Node doc = YAML::LoadFile(kDescription);
    for (const auto& path : doc["paths"]) {
        for (const auto& operation : path.second) {
            std::string method = operation.first.Scalar();
            if (method == "parameters" || method == "summary" || method == "description") continue;
            for (auto& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            out.emplace(method, path.first.Scalar());
        }
    }
    return out;
}

// The routes of a daemon's Api as lifecycle assembles it: the built-in ones
// and the MCP endpoint's.
RouteSet served_routes() {
    uv_loop_t loop;
    uv_loop_init(&loop);
    auto loaded = config::load_string("storage:\n  plugin: memory\n", "docs.yaml", "/tmp");
    EXPECT_TRUE(loaded.config) << (loaded.errors.empty() ? "" : loaded.errors.front());
    auto plugin = storage::load_plugin("memory", MNEMO_BUILD_PLUGIN_DIR);
    EXPECT_TRUE(plugin.plugin) << plugin.error;
    std::string error;
    auto backend = storage::Backend::open(std::move(plugin.plugin), core::plugin_host(), "{}", &error);
    EXPECT_TRUE(backend) << error;
    RouteSet out;
    if (loaded.config && backend) {
        core::SystemClock clock;
        metrics::Registry metrics;
        {
            api::Api api(&loop, *backend, loaded.config, clock, metrics);
            mcp::Endpoint endpoint(api);
            for (auto& route : api.routes()) out.insert(std::move(route));
        }
        uv_run(&loop, UV_RUN_DEFAULT);
    }
    backend.reset();
    uv_loop_close(&loop);
    return out;
}

TEST(OpenApi, DescribesExactlyTheRoutesTheDaemonServes) {
    RouteSet served = served_routes();
    RouteSet described = described_routes();
    ASSERT_FALSE(served.empty());
    for (const auto& [method, path] : served) {
        EXPECT_TRUE(described.count({method, path}))
            << method << " " << path << " is served but docs/openapi.yaml does not describe it (add it under paths)";
    }
    for (const auto& [method, path] : described) {
        EXPECT_TRUE(served.count({method, path}))
            << method << " " << path << " is described in docs/openapi.yaml but no route serves it";
    }
}

TEST(OpenApi, TheBuiltInDescriptionIsTheFileAndConvertsToJson) {
    EXPECT_TRUE(api::openapi_yaml() == read_file(kDescription)) << "rebuild: the binary embeds another openapi.yaml";
    const auto& json = api::openapi_json();
    ASSERT_TRUE(json) << "docs/openapi.yaml does not parse as YAML";
    EXPECT_EQ(json->front(), '{');
    EXPECT_NE(json->find(R"("openapi":"3.1.0")"), std::string::npos);
}

}  // namespace
}  // namespace mnemo
