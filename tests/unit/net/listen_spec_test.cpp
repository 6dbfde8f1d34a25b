#include "net/listen_spec.h"

#include <gtest/gtest.h>

namespace mnemo::net {
namespace {

TEST(ListenSpec, HostAndPort) {
    std::string error;
    auto spec = parse_listen_spec("127.0.0.1:7420", &error);
    ASSERT_TRUE(spec) << error;
    EXPECT_EQ(spec->kind, ListenSpec::Kind::tcp);
    EXPECT_EQ(spec->host, "127.0.0.1");
    EXPECT_EQ(spec->port, 7420);
}

TEST(ListenSpec, BracketedIpv6) {
    auto spec = parse_listen_spec("[::1]:0", nullptr);
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->host, "::1");
    EXPECT_EQ(spec->port, 0);
}

TEST(ListenSpec, UnixPath) {
    auto spec = parse_listen_spec("unix:/run/mnemod/api.sock", nullptr);
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->kind, ListenSpec::Kind::unix_socket);
    EXPECT_EQ(spec->path, "/run/mnemod/api.sock");
}

TEST(ListenSpec, ErrorsNameTheSpecAndTheProblem) {
    std::string error;
    EXPECT_FALSE(parse_listen_spec("localhost", &error));
    EXPECT_EQ(error, "listen \"localhost\": expected \"host:port\", \"[ipv6]:port\" or \"unix:/path\"");
    EXPECT_FALSE(parse_listen_spec("127.0.0.1:70000", &error));
    EXPECT_EQ(error, "listen \"127.0.0.1:70000\": the port must be a number 0..65535");
    EXPECT_FALSE(parse_listen_spec("::1:80", &error));
    EXPECT_EQ(error, "listen \"::1:80\": an IPv6 address needs brackets, as in \"[::1]:7420\"");
    EXPECT_FALSE(parse_listen_spec("unix:", &error));
    EXPECT_NE(error.find("the unix socket path is empty"), std::string::npos);
    EXPECT_FALSE(parse_listen_spec("unix:/" + std::string(200, 'a'), &error));
    EXPECT_NE(error.find("longer than 107 bytes"), std::string::npos);
    EXPECT_FALSE(parse_listen_spec(":80", &error));
    EXPECT_NE(error.find("the host is empty"), std::string::npos);
}

}  // namespace
}  // namespace mnemo::net
