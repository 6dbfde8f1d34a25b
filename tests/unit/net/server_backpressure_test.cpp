// Server over real loopback sockets: peers that do not read their answers
// (output limit, send timeout) and requests that never finish (request timeout).

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "server_harness.h"
#include "test_client.h"

namespace mnemo::net::testing {
namespace {

std::string pipeline(int requests) {
    std::string all;
    for (int i = 0; i < requests; ++i) all += get_request("/" + std::to_string(i));
    return all;
}

// Answers every request at once with `bytes` of body, counting the calls.
void answer_with_bytes(ServerHarness& harness, size_t bytes, std::atomic<int>& calls) {
    harness.handler = [bytes, &calls](Request&& request, Responder respond) {
        ++calls;
        Response response;
        response.body.assign(bytes, 'x');
        response.body.replace(0, request.path.size(), request.path);
        respond(std::move(response));
    };
}

TEST(ServerBackpressure, APeerThatDoesNotReadHasItsNextRequestsNeitherReadNorRun) {
    ServerOptions options;
    options.output_limit = 256 * 1024;
    ServerHarness harness(options);
    std::atomic<int> calls{0};
    constexpr size_t kAnswer = 1 << 20;
    answer_with_bytes(harness, kAnswer, calls);
    int port = harness.listen_tcp();
    constexpr int kRequests = 200;
    int ran_while_not_reading = 0;
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ASSERT_GE(fd, 0);
        ASSERT_TRUE(send_all(fd, pipeline(kRequests)));
        // Some answers fit the sockets' kernel buffers; the rest must wait for the reader.
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        ran_while_not_reading = calls.load();
        ResponseReader reader(fd);
        for (int i = 0; i < kRequests; ++i) {
            auto response = reader.next();
            ASSERT_TRUE(response) << "response " << i;
            ASSERT_EQ(response->body.size(), kAnswer);
            ASSERT_EQ(response->body.substr(0, 2 + std::to_string(i).size()), "/" + std::to_string(i) + "x");
        }
        ::close(fd);
    });
    // 200 MiB asked for; loopback buffers hold a few MiB of it at most.
    EXPECT_LT(ran_while_not_reading, 40) << "requests ran while the peer read nothing";
    EXPECT_EQ(calls.load(), kRequests);
}

// Issue 37: four pipelined requests ran at once before any answer was known, and each brought an 8 MB
// answer to a client that read nothing. Until an answer shows their size, requests run one at a time.
TEST(ServerBackpressure, RequestsRunOneAtATimeUntilAnAnswerHasShownItsSize) {
    ServerOptions options;
    options.output_limit = 256 * 1024;
    ServerHarness harness(options);
    std::vector<Responder> held;
    size_t in_flight_before_an_answer = 0;
    harness.handler = [&](Request&&, Responder respond) {
        held.push_back(std::move(respond));
        if (held.size() > 1) return;
        harness.after(100, [&] {  // time for the whole pipeline to arrive
            if (in_flight_before_an_answer == 0) in_flight_before_an_answer = held.size();
            for (auto& answer : held) {
                Response response;
                response.body.assign(1 << 20, 'x');
                answer(std::move(response));
            }
            held.clear();
        });
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, pipeline(8)));
        for (int i = 0; i < 8; ++i) ASSERT_TRUE(reader.next()) << "response " << i;
        ::close(fd);
    });
    EXPECT_EQ(in_flight_before_an_answer, 1u);
}

TEST(ServerBackpressure, RequestsInFlightAreBoundedWhileAnswersArePending) {
    ServerHarness harness;
    std::vector<Responder> held;
    size_t most_in_flight = 0;
    harness.handler = [&](Request&&, Responder respond) {
        held.push_back(std::move(respond));
        most_in_flight = std::max(most_in_flight, held.size());
        if (held.size() > 1) return;
        harness.after(5, [&] {
            for (auto& answer : held) answer(Response{});
            held.clear();
        });
    };
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, pipeline(50)));
        for (int i = 0; i < 50; ++i) ASSERT_TRUE(reader.next()) << "response " << i;
        ::close(fd);
    });
    EXPECT_GE(most_in_flight, 2u);  // still pipelined: more than one at a time
    EXPECT_LE(most_in_flight, 4u);
}

TEST(ServerBackpressure, APeerThatTakesNoOutputForTheSendTimeoutIsClosedAndCounted) {
    ServerOptions options;
    options.output_limit = 64 * 1024;
    options.send_timeout_us = 300'000;
    std::vector<std::string> dropped;
    std::atomic<bool> closed{false};  // set on the loop's thread, read by the client's
    options.on_dropped = [&](std::string_view reason) {
        dropped.emplace_back(reason);
        closed = true;
    };
    ServerHarness harness(options);
    std::atomic<int> calls{0};
    answer_with_bytes(harness, 32 << 20, calls);  // more than any socket buffer takes
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ASSERT_TRUE(send_all(fd, get_request("/big")));
        // Until the server closes it: its FIN cannot reach a peer that reads nothing (it waits behind the data).
        auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (!closed && std::chrono::steady_clock::now() < give_up) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        ::close(fd);
    });
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], "send_timeout");
    EXPECT_TRUE(harness.run_until([&] { return harness.server().connection_count() == 0; }));
}

TEST(ServerBackpressure, APeerThatReadsSlowlyButSteadilyIsNotClosed) {
    ServerOptions options;
    options.send_timeout_us = 1'500'000;
    std::vector<std::string> dropped;
    options.on_dropped = [&dropped](std::string_view reason) { dropped.emplace_back(reason); };
    ServerHarness harness(options);
    std::atomic<int> calls{0};
    answer_with_bytes(harness, 16 << 20, calls);
    int port = harness.listen_tcp();
    size_t received = 0;
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ASSERT_TRUE(send_all(fd, get_request("/big")));
        // Well past the send timeout in all, but never a wait as long as it.
        static char chunk[512 * 1024];
        auto start = std::chrono::steady_clock::now();
        while (received < (16u << 20) && std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0) break;
            received += static_cast<size_t>(n);
        }
        ::close(fd);
    });
    EXPECT_GE(received, 16u << 20);  // all of it, however long it took
    EXPECT_TRUE(dropped.empty());
}

TEST(ServerRequestTimeout, ARequestTrickledInSlowerThanTheTimeoutGets408AndTheConnectionCloses) {
    ServerOptions options;
    options.request_timeout_us = 300'000;
    options.idle_timeout_us = 60'000'000;
    std::vector<std::string> dropped;
    options.on_dropped = [&dropped](std::string_view reason) { dropped.emplace_back(reason); };
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        std::string head = "GET /slow HTTP/1.1\r\nHost: t\r\nX-Pad: " + std::string(20, 'p');
        // One byte every 20 ms, each well within any idle timeout: the request's deadline does not move.
        for (char c : head) {
            if (!send_all(fd, std::string_view(&c, 1))) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        ResponseReader reader(fd);
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->status, 408);
        EXPECT_NE(response->body.find("\"request_timeout\""), std::string::npos) << response->body;
        EXPECT_EQ(response->header("connection"), "close");
        ::close(fd);
    });
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], "request_timeout");
    EXPECT_EQ(harness.server().requests_total(), 0u);
}

// 1.2 s of requests against a 1 s timeout, each whole within 100 ms: ten times the time a request
// needs, so a slow machine does not time one out, and more than the timeout in all.
TEST(ServerRequestTimeout, PipelinedRequestsEachWholeInTimeAreNotTimedOut) {
    ServerOptions options;
    options.request_timeout_us = 1'000'000;
    ServerHarness harness(options);
    int port = harness.listen_tcp();
    harness.run_client([&] {
        int fd = connect_tcp(port);
        ResponseReader reader(fd);
        // Each write ends inside the next request, so some request is always under way.
        std::string request = get_request("/x");
        ASSERT_TRUE(send_all(fd, request.substr(0, 5)));
        for (int i = 0; i < 12; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ASSERT_TRUE(send_all(fd, request.substr(5) + request.substr(0, 5)));
            auto response = reader.next();
            ASSERT_TRUE(response) << "response " << i;
            EXPECT_EQ(response->status, 200);
        }
        ::close(fd);
    });
    EXPECT_EQ(harness.server().requests_total(), 12u);
}

}  // namespace
}  // namespace mnemo::net::testing
