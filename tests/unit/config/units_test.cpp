// Durations, sizes, ${VAR} expansion and listener parsing on their own.
#include <gtest/gtest.h>

#include "config/env_expand.h"
#include "config/listen.h"
#include "config/units.h"

namespace mnemo::config {
namespace {

int64_t duration(std::string_view text) {
    return std::get<int64_t>(parse_duration_us(text));
}
uint64_t size(std::string_view text) {
    return std::get<uint64_t>(parse_size_bytes(text));
}

TEST(Units, DurationsInEveryUnit) {
    EXPECT_EQ(duration("250ms"), 250000);
    EXPECT_EQ(duration("30s"), 30000000);
    EXPECT_EQ(duration("5m"), 300000000);
    EXPECT_EQ(duration("24h"), 86400000000);
    EXPECT_EQ(duration("30d"), 2592000000000);
    EXPECT_EQ(duration("45"), 45000000);
    EXPECT_EQ(duration("0"), 0);
}

TEST(Units, MalformedAndOverflowingDurationsAreRefused) {
    for (const char* text : {"", "s", "1.5s", "5 s", "5w", "ms5", "99999999999999999d"}) {
        EXPECT_TRUE(std::holds_alternative<UnitError>(parse_duration_us(text))) << text;
    }
    EXPECT_EQ(std::get<UnitError>(parse_duration_us("-1")).message, "must not be negative, got \"-1\"");
}

TEST(Units, SizesInEveryUnit) {
    EXPECT_EQ(size("512"), 512u);
    EXPECT_EQ(size("64KiB"), 65536u);
    EXPECT_EQ(size("4MiB"), 4194304u);
    EXPECT_EQ(size("1GiB"), 1073741824u);
    for (const char* text : {"4MB", "1.5MiB", "KiB", "-4KiB", "x"}) {
        EXPECT_TRUE(std::holds_alternative<UnitError>(parse_size_bytes(text))) << text;
    }
}

EnvLookup fake_env() {
    return [](const std::string& name) -> std::optional<std::string> {
        if (name == "HOST") return "db.internal";
        if (name == "EMPTY") return "";
        return std::nullopt;
    };
}

std::string expanded(std::string_view text) {
    return std::get<std::string>(expand_env(text, fake_env()));
}

TEST(EnvExpand, ReplacesVariablesAndDefaults) {
    EXPECT_EQ(expanded("mysql://${HOST}:3306"), "mysql://db.internal:3306");
    EXPECT_EQ(expanded("${PORT:-7420}"), "7420");
    EXPECT_EQ(expanded("${HOST:-other}"), "db.internal");
    EXPECT_EQ(expanded("${EMPTY:-fallback}"), "fallback");
    EXPECT_EQ(expanded("${EMPTY}"), "");
    EXPECT_EQ(expanded("${PORT:-}"), "");
    EXPECT_EQ(expanded("cost $5 and ${HOST}"), "cost $5 and db.internal");
}

TEST(EnvExpand, UnsetMalformedAndUnterminatedAreErrors) {
    EXPECT_EQ(std::get<EnvError>(expand_env("${NOPE}", fake_env())).message,
              "environment variable NOPE is not set (set it, or write ${NOPE:-default})");
    EXPECT_TRUE(std::holds_alternative<EnvError>(expand_env("${1BAD}", fake_env())));
    EXPECT_TRUE(std::holds_alternative<EnvError>(expand_env("${HOST", fake_env())));
}

Listen listen(std::string_view text) {
    return std::get<Listen>(parse_listen(text));
}

TEST(Listen, ParsesEveryForm) {
    Listen v4 = listen("0.0.0.0:8080");
    EXPECT_EQ(v4.kind, Listen::Kind::Tcp);
    EXPECT_EQ(v4.host, "0.0.0.0");
    EXPECT_EQ(v4.port, 8080);
    EXPECT_FALSE(v4.loopback);
    Listen v6 = listen("[::1]:7420");
    EXPECT_EQ(v6.host, "::1");
    EXPECT_TRUE(v6.loopback);
    EXPECT_FALSE(listen("[::]:7420").loopback);
    EXPECT_TRUE(listen("127.5.6.7:1").loopback);
    EXPECT_TRUE(listen("localhost:65535").loopback);
    EXPECT_FALSE(listen("api.example.com:80").loopback);
    Listen unix_socket = listen("unix:/run/mnemo.sock");
    EXPECT_EQ(unix_socket.kind, Listen::Kind::Unix);
    EXPECT_EQ(unix_socket.path, "/run/mnemo.sock");
    EXPECT_EQ(unix_socket.text, "unix:/run/mnemo.sock");
    EXPECT_TRUE(unix_socket.loopback);
}

TEST(Listen, RefusesMalformedEntries) {
    for (const char* text :
         {"7420", ":7420", "::1:7420", "[::1]", "[nothost]:80", "host:65536", "host:x", "unix:", "a b:80"}) {
        EXPECT_TRUE(std::holds_alternative<std::string>(parse_listen(text))) << text;
    }
}

}  // namespace
}  // namespace mnemo::config
