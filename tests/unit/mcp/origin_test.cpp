// The MCP endpoint's Origin check (DNS-rebinding protection) and protocol versions.
#include "mcp/endpoint.h"

#include "config/listen.h"

#include <gtest/gtest.h>

namespace mnemo::mcp {
namespace {

config::Config with_listeners(std::vector<std::string> listen, std::vector<std::string> allowed = {}) {
    config::Config config;
    for (const auto& text : listen)
        config.server.listen.push_back(std::get<config::Listen>(config::parse_listen(text)));
    config.server.mcp_allowed_origins = std::move(allowed);
    return config;
}

TEST(McpOrigin, LoopbackListenersTakeLocalPages) {
    auto config = with_listeners({"127.0.0.1:7420"});
    EXPECT_TRUE(origin_allowed(config, "http://127.0.0.1:7420"));
    EXPECT_TRUE(origin_allowed(config, "http://localhost:3000"));
    EXPECT_TRUE(origin_allowed(config, "http://[::1]:7420"));
    EXPECT_FALSE(origin_allowed(config, "http://evil.example:7420"));
    EXPECT_FALSE(origin_allowed(config, "null"));
    EXPECT_FALSE(origin_allowed(config, "http://127.0.0.1.evil.example"));
}

TEST(McpOrigin, OtherListenersTakeTheirOwnHostAndTheAllowedList) {
    auto config = with_listeners({"10.0.0.5:7420", "unix:/run/mnemo.sock"}, {"app.example", "https://ui.example:8443"});
    EXPECT_TRUE(origin_allowed(config, "http://10.0.0.5:7420"));
    EXPECT_FALSE(origin_allowed(config, "http://localhost:7420"));
    EXPECT_TRUE(origin_allowed(config, "https://APP.example"));
    EXPECT_TRUE(origin_allowed(config, "https://ui.example:8443"));
    EXPECT_FALSE(origin_allowed(config, "https://ui.example:9999"));
}

TEST(McpProtocol, Versions) {
    EXPECT_TRUE(supported_protocol_version("2025-11-25"));
    EXPECT_TRUE(supported_protocol_version("2025-06-18"));
    EXPECT_TRUE(supported_protocol_version("2025-03-26"));
    EXPECT_FALSE(supported_protocol_version("2024-11-05"));
    EXPECT_FALSE(supported_protocol_version(""));
}

}  // namespace
}  // namespace mnemo::mcp
