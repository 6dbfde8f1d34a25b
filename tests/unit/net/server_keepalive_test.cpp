// Server over real loopback sockets: keep-alive, pipelining, transport errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include "server_harness.h"
#include "test_client.h"

namespace mnemo::net::testing {
namespace {

TEST(ServerKeepAlive, TwoSequentialRequestsShareOneConnection) {
    ServerHarness harness;
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ASSERT_GE(fd, 0);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/first", "X-Request-Id: req-1\r\n")));
        auto first = reader.next();
        ASSERT_TRUE(first);
        EXPECT_EQ(first->status, 200);
        EXPECT_EQ(first->body, "/first");
        EXPECT_EQ(first->header("x-request-id"), "req-1");
        EXPECT_EQ(first->header("content-type"), "application/json");
        EXPECT_EQ(first->header("connection"), "");
        ASSERT_TRUE(send_all(fd, get_request("/second")));
        auto second = reader.next();
        ASSERT_TRUE(second);
        EXPECT_EQ(second->body, "/second");
        EXPECT_EQ(second->header("x-request-id").size(), 16u);
        ::close(fd);
    });
    EXPECT_EQ(harness.server().requests_total(), 2u);
    EXPECT_TRUE(harness.run_until([&] { return harness.server().connection_count() == 0; }));
}

TEST(ServerKeepAlive, ConnectionCloseIsHonoured) {
    ServerHarness harness;
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/bye", "Connection: close\r\n")));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->header("connection"), "close");
        EXPECT_TRUE(reader.at_eof());
        ::close(fd);
    });
}

TEST(ServerKeepAlive, Http10KeepAliveIsConfirmedAndPlainHttp10Closes) {
    ServerHarness harness;
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        auto kept = reader.next();
        ASSERT_TRUE(kept);
        EXPECT_EQ(kept->header("connection"), "keep-alive");
        ASSERT_TRUE(send_all(fd, "GET /b HTTP/1.0\r\n\r\n"));
        auto closed = reader.next();
        ASSERT_TRUE(closed);
        EXPECT_EQ(closed->body, "/b");
        EXPECT_EQ(closed->header("connection"), "close");
        EXPECT_TRUE(reader.at_eof());
        ::close(fd);
    });
}

// A connection runs one request until an answer has shown how large answers are (connection_input.cpp),
// so the first is answered at once; the next three are in flight together and answered backwards.
TEST(ServerPipelining, AnswersInRequestOrderWhenTheHandlerAnswersOutOfOrder) {
    ServerHarness harness;
    std::vector<Responder> held;
    std::vector<std::string> paths;
    harness.handler = [&](Request&& request, Responder respond) {
        if (request.path == "/1") {
            Response first;
            first.body = request.path;
            return respond(std::move(first));
        }
        paths.push_back(request.path);
        held.push_back(std::move(respond));
        if (held.size() < 3) return;
        harness.after(1, [&] {  // the fourth, then the third, then the second
            for (size_t i = held.size(); i-- > 0;) {
                Response response;
                response.body = paths[i];
                held[i](std::move(response));
            }
        });
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/1", "X-Request-Id: a\r\n") + get_request("/2", "X-Request-Id: b\r\n") +
                                     get_request("/3", "X-Request-Id: c\r\n") +
                                     get_request("/4", "X-Request-Id: d\r\n")));
        const char* ids[] = {"a", "b", "c", "d"};
        for (int i = 0; i < 4; ++i) {
            auto response = reader.next();
            ASSERT_TRUE(response);
            EXPECT_EQ(response->body, "/" + std::to_string(i + 1));
            EXPECT_EQ(response->header("x-request-id"), ids[i]);
        }
        ::close(fd);
    });
}

TEST(ServerPipelining, ManyPipelinedRequestsAreAllAnsweredWithABoundedNumberInFlight) {
    ServerHarness harness;
    std::vector<std::pair<std::string, Responder>> held;
    size_t most_in_flight = 0;
    bool answering = false;
    std::function<void()> answer_held = [&] {
        answering = true;
        for (auto& [path, respond] : held) {
            Response response;
            response.body = path;
            respond(std::move(response));
        }
        held.clear();
        answering = false;
    };
    harness.handler = [&](Request&& request, Responder respond) {
        EXPECT_FALSE(answering) << "a Responder re-entered the handler";
        if (held.empty()) harness.after(1, answer_held);
        held.emplace_back(request.path, std::move(respond));
        most_in_flight = std::max(most_in_flight, held.size());
    };
    int port = harness.listen_tcp();
    constexpr int kRequests = 300;
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        std::string all;
        for (int i = 0; i < kRequests; ++i) all += get_request("/" + std::to_string(i));
        ASSERT_TRUE(send_all(fd, all));
        for (int i = 0; i < kRequests; ++i) {
            auto response = reader.next();
            ASSERT_TRUE(response) << "response " << i;
            ASSERT_EQ(response->body, "/" + std::to_string(i));
        }
        ::close(fd);
    });
    EXPECT_LE(most_in_flight, 128u);
    EXPECT_EQ(harness.server().requests_total(), static_cast<uint64_t>(kRequests));
}

TEST(ServerLimits, ChunkedBodyWithExpectContinueGetsAnInterimResponse) {
    ServerHarness harness;
    harness.handler = [](Request&& request, Responder respond) {
        Response response;
        response.status = 201;
        response.body = request.body;
        respond(std::move(response));
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, "POST /c HTTP/1.1\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"));
        auto interim = reader.next();
        ASSERT_TRUE(interim);
        EXPECT_EQ(interim->status, 100);
        ASSERT_TRUE(send_all(fd, "4;ext=1\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n"));
        auto created = reader.next();
        ASSERT_TRUE(created);
        EXPECT_EQ(created->status, 201);
        EXPECT_EQ(created->body, "{\"a\":1}");
        ::close(fd);
    });
}

TEST(ServerLimits, DeclaredBodyOverTheLimitGets413AndTheConnectionCloses) {
    ServerOptions options;
    options.max_body_bytes = 100;
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(
            fd, "POST /x HTTP/1.1\r\nX-Request-Id: big\r\nContent-Length: 1000\r\n\r\n" + std::string(1000, 'x')));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 413);
        EXPECT_NE(response->body.find("\"payload_too_large\""), std::string::npos);
        EXPECT_EQ(response->header("x-request-id"), "big");
        EXPECT_EQ(response->header("connection"), "close");
        EXPECT_TRUE(reader.at_eof());
        ::close(fd);
    });
    EXPECT_EQ(harness.server().requests_total(), 0u);
}

TEST(ServerLimits, ReloadedBodyLimitAppliesToTheNextRequest) {
    ServerHarness harness;
    int port = harness.listen_tcp();
    harness.handler = [&](Request&& request, Responder respond) {
        ServerOptions smaller;
        smaller.max_body_bytes = 4;
        harness.server().set_options(smaller);
        Response response;
        response.body = request.body;
        respond(std::move(response));
    };
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        std::string post = "POST /x HTTP/1.1\r\nContent-Length: 6\r\n\r\nabcdef";
        ASSERT_TRUE(send_all(fd, post));
        auto accepted = reader.next();
        ASSERT_TRUE(accepted);
        EXPECT_EQ(accepted->status, 200);
        ASSERT_TRUE(send_all(fd, post));
        auto refused = reader.next();
        ASSERT_TRUE(refused);
        EXPECT_EQ(refused->status, 413);
        ::close(fd);
    });
}

TEST(ServerLimits, MalformedRequestGets400NamingTheParserErrorAfterEarlierAnswers) {
    ServerHarness harness;
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/fine") + "NOT HTTP AT ALL\r\n\r\n"));
        auto fine = reader.next();
        ASSERT_TRUE(fine);
        EXPECT_EQ(fine->status, 200);
        EXPECT_EQ(fine->header("connection"), "");
        auto bad = reader.next();
        ASSERT_TRUE(bad);
        EXPECT_EQ(bad->status, 400);
        EXPECT_NE(bad->body.find("\"invalid_argument\""), std::string::npos);
        EXPECT_NE(bad->body.find("HPE_"), std::string::npos) << bad->body;
        EXPECT_EQ(bad->header("connection"), "close");
        EXPECT_TRUE(reader.at_eof());
        ::close(fd);
    });
}

TEST(ServerLimits, OversizedHeadersGet431) {
    ServerOptions options;
    options.max_header_bytes = 256;
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/", "X-Big: " + std::string(400, 'a') + "\r\n")));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 431);
        EXPECT_NE(response->body.find("server.max_header_bytes"), std::string::npos);
        EXPECT_TRUE(reader.at_eof());
        ::close(fd);
    });
}

TEST(ServerLimits, ConnectionBeyondMaxConnectionsGets429WithRetryAfter) {
    ServerOptions options;
    options.max_connections = 1;
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int first = connect_tcp(port);
        ResponseReader first_reader(first);
        ASSERT_TRUE(send_all(first, get_request("/a")));
        ASSERT_TRUE(first_reader.next());  // admitted and served

        int second = connect_tcp(port);
        ResponseReader second_reader(second);
        auto refused = second_reader.next();
        ASSERT_TRUE(refused);
        EXPECT_EQ(refused->status, 429);
        EXPECT_EQ(refused->header("retry-after"), "1");
        EXPECT_EQ(refused->header("connection"), "close");
        EXPECT_NE(refused->body.find("\"overloaded\""), std::string::npos);
        EXPECT_TRUE(second_reader.at_eof());
        ::close(second);

        ASSERT_TRUE(send_all(first, get_request("/b")));  // the admitted connection still works
        auto again = first_reader.next();
        ASSERT_TRUE(again);
        EXPECT_EQ(again->body, "/b");
        ::close(first);
    });
    EXPECT_EQ(harness.server().requests_total(), 2u);
}

TEST(ServerLimits, HandlerExceptionBecomes500AndIsLogged) {
    ServerHarness harness;
    harness.handler = [](Request&&, Responder) { throw std::runtime_error("boom"); };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/x")));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 500);
        EXPECT_NE(response->body.find("\"internal\""), std::string::npos);
        ::close(fd);
    });
    ASSERT_EQ(harness.log.size(), 1u);
    EXPECT_EQ(harness.log[0], "request handler threw: boom");
}

TEST(ServerLimits, NoContentResponseHasNoBodyAndTheConnectionStaysUsable) {
    ServerHarness harness;
    harness.handler = [](Request&& request, Responder respond) {
        Response response;
        response.status = request.path == "/empty" ? 204 : 200;
        response.body = request.path == "/empty" ? "" : "x";
        respond(std::move(response));
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, get_request("/empty") + get_request("/full")));
        auto empty = reader.next();
        ASSERT_TRUE(empty);
        EXPECT_EQ(empty->status, 204);
        EXPECT_EQ(empty->header("content-type"), "");
        EXPECT_EQ(empty->header("content-length"), "");
        auto full = reader.next();
        ASSERT_TRUE(full);
        EXPECT_EQ(full->body, "x");
        ::close(fd);
    });
}

}  // namespace
}  // namespace mnemo::net::testing
