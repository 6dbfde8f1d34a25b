// Server over real sockets: idle timeout, drain, peers that vanish, listen errors.

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "server_harness.h"
#include "test_client.h"

namespace mnemo::net::testing {
namespace {

const std::string kGet = "GET /x HTTP/1.1\r\n\r\n";

TEST(ServerIdle, IdleKeepAliveConnectionsAreClosed) {
    ServerOptions options;
    options.idle_timeout_us = 20'000;
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int served = connect_tcp(port);
        int silent = connect_tcp(port);
        ResponseReader served_reader(served);
        ResponseReader silent_reader(silent);
        ASSERT_TRUE(send_all(served, kGet));
        ASSERT_TRUE(served_reader.next());
        EXPECT_TRUE(served_reader.at_eof());  // closed by the server, not by us
        EXPECT_TRUE(silent_reader.at_eof());  // never sent a request
        ::close(served);
        ::close(silent);
    });
    EXPECT_TRUE(harness.run_until([&] { return harness.server().connection_count() == 0; }));
}

TEST(ServerIdle, ConnectionWaitingForItsHandlerIsNotIdle) {
    ServerOptions options;
    options.idle_timeout_us = 5'000;
    ServerHarness harness(options);
    Responder held;
    harness.handler = [&](Request&&, Responder respond) {
        held = std::move(respond);
        harness.after(30, [&] { held(Response{}); });  // several idle timeouts later
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, kGet));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 200);
        ::close(fd);
    });
}

TEST(ServerDrain, InFlightRequestIsAnsweredWithCloseThenOnDrainedRuns) {
    ServerHarness harness;
    Responder held;
    bool answered = false;
    bool drained = false;
    bool drained_after_answer = false;
    harness.handler = [&](Request&& request, Responder respond) {
        if (request.path != "/slow") {
            respond(Response{});
            return;
        }
        held = std::move(respond);
        harness.server().drain(10'000'000, [&] {
            drained = true;
            drained_after_answer = answered;
        });
        harness.after(5, [&] {
            Response response;
            response.body = "done";
            answered = true;
            held(std::move(response));
        });
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int idle = connect_tcp(port);
        ResponseReader idle_reader(idle);
        ASSERT_TRUE(send_all(idle, kGet));
        ASSERT_TRUE(idle_reader.next());

        int busy = connect_tcp(port);
        ResponseReader busy_reader(busy);
        ASSERT_TRUE(send_all(busy, "GET /slow HTTP/1.1\r\n\r\n"));
        EXPECT_TRUE(idle_reader.at_eof());  // the idle keep-alive connection is closed by the drain
        auto response = busy_reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->body, "done");
        EXPECT_EQ(response->header("connection"), "close");
        EXPECT_TRUE(busy_reader.at_eof());
        EXPECT_EQ(connect_tcp_errno(port), ECONNREFUSED);  // no longer accepting
        ::close(idle);
        ::close(busy);
    });
    EXPECT_TRUE(harness.run_until([&] { return drained; }));
    EXPECT_TRUE(drained_after_answer);
    EXPECT_EQ(harness.server().connection_count(), 0u);
}

TEST(ServerDrain, TimeoutClosesEverythingAndALateResponderIsDropped) {
    ServerHarness harness;
    Responder held;
    bool drained = false;
    harness.handler = [&](Request&&, Responder respond) {
        held = std::move(respond);
        harness.server().drain(10'000, [&] { drained = true; });
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, kGet));
        EXPECT_FALSE(reader.next());  // closed without an answer
        ::close(fd);
    });
    EXPECT_TRUE(harness.run_until([&] { return drained; }));
    held(Response{});  // the connection is gone: dropped, no crash
    EXPECT_EQ(harness.server().requests_total(), 1u);
}

TEST(ServerDrain, WithNothingOpenOnDrainedRunsFromTheLoopNotFromDrain) {
    ServerHarness harness;
    harness.listen_tcp();
    bool drained = false;
    harness.server().drain(1'000'000, [&] { drained = true; });
    EXPECT_FALSE(drained);
    EXPECT_TRUE(harness.run_until([&] { return drained; }));
}

TEST(ServerPeers, ResetWhileTheHandlerIsPendingDropsTheAnswer) {
    ServerHarness harness;
    Responder held;
    harness.handler = [&](Request&&, Responder respond) { held = std::move(respond); };
    int port = harness.listen_tcp();
    int fd = -1;
    harness.run_client([&] {
        fd = connect_tcp(port);
        ASSERT_TRUE(send_all(fd, kGet));
    });
    ASSERT_TRUE(harness.run_until([&] { return static_cast<bool>(held); }));
    reset_and_close(fd);
    ASSERT_TRUE(harness.run_until([&] { return harness.server().connection_count() == 0; }));
    held(Response{});  // the connection is gone: dropped, no crash
    harness.handler = [](Request&&, Responder respond) { respond(Response{}); };
    harness.run_client([&] {  // and the server still serves others
        int again = connect_tcp(port);
        ResponseReader reader(again);
        ASSERT_TRUE(send_all(again, kGet));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 200);
        ::close(again);
    });
}

TEST(ServerPeers, ResponderOutlivesTheServer) {
    Responder held;
    {
        ServerHarness harness;
        harness.handler = [&](Request&&, Responder respond) { held = std::move(respond); };
        int port = harness.listen_tcp();
        int fd = -1;
        harness.run_client([&] {
            fd = connect_tcp(port);
            ASSERT_TRUE(send_all(fd, kGet));
        });
        ASSERT_TRUE(harness.run_until([&] { return static_cast<bool>(held); }));
        harness.destroy_server();
        ::close(fd);
    }
    held(Response{});  // dropped
}

void answer_with_more_than_sockets_take(ServerHarness& harness, bool& answered) {
    harness.handler = [&answered](Request&&, Responder respond) {
        Response response;
        response.body.assign(16 << 20, 'z');
        respond(std::move(response));
        answered = true;
    };
}

// Large answers leave as the handler's own strings, held until their write
// completes: a write cut short by the peer's reset, or by the server going
// away, must still free them (the ASan build checks).
TEST(ServerPeers, ResetWhileALargeAnswerIsBeingWrittenFreesIt) {
    ServerHarness harness;
    bool answered = false;
    answer_with_more_than_sockets_take(harness, answered);
    int port = harness.listen_tcp();
    int fd = -1;
    harness.run_client([&] {
        fd = connect_tcp(port);
        ASSERT_TRUE(send_all(fd, kGet + kGet));
    });
    ASSERT_TRUE(harness.run_until([&] { return answered; }));
    reset_and_close(fd);
    ASSERT_TRUE(harness.run_until([&] { return harness.server().connection_count() == 0; }));
}

TEST(ServerPeers, ServerDestroyedWhileALargeAnswerIsBeingWrittenFreesIt) {
    ServerHarness harness;
    bool answered = false;
    answer_with_more_than_sockets_take(harness, answered);
    int port = harness.listen_tcp();
    int fd = -1;
    harness.run_client([&] {
        fd = connect_tcp(port);
        ASSERT_TRUE(send_all(fd, kGet));
    });
    ASSERT_TRUE(harness.run_until([&] { return answered; }));
    harness.destroy_server();
    ::close(fd);
}

TEST(ServerListen, PortInUseNamesTheSpecAndTheError) {
    ServerHarness first;
    int port = first.listen_tcp();
    ServerHarness second;
    std::string error;
    std::string spec = "127.0.0.1:" + std::to_string(port);
    EXPECT_FALSE(second.server().listen(spec, &error));
    EXPECT_NE(error.find("listen \"" + spec + "\": "), std::string::npos) << error;
    EXPECT_NE(error.find("EADDRINUSE"), std::string::npos) << error;
}

TEST(ServerListen, BadSpecIsRefused) {
    ServerHarness harness;
    std::string error;
    EXPECT_FALSE(harness.server().listen("nowhere", &error));
    EXPECT_EQ(error, "listen \"nowhere\": expected \"host:port\", \"[ipv6]:port\" or \"unix:/path\"");
}

TEST(ServerListen, AdoptsAnAlreadyListeningSocket) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ASSERT_EQ(::listen(fd, 16), 0);
    ServerHarness harness;
    std::string error;
    ASSERT_TRUE(harness.server().adopt_listener(fd, &error)) << error;
    int port = harness.server().bound_port(0);
    harness.run_client([&] {
        int client = connect_tcp(port);
        ResponseReader reader(client);
        ASSERT_TRUE(send_all(client, kGet));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->body, "/x");
        ::close(client);
    });
}

}  // namespace
}  // namespace mnemo::net::testing
