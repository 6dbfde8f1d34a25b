// Clients that stall or bloat the daemon, scaled for CI: slow readers
// pipelining requests for a large session (server.output_limit,
// server.send_timeout) and trickling sockets up to max_connections
// (server.request_timeout). Each checks the daemon's RSS against a bound
// derived from the limits and that another client is still answered; the
// figures are printed for the notes.
#include "fixture.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

namespace mnemo::integration {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kMiB = 1 << 20;

#if defined(__SANITIZE_ADDRESS__)
// ASan keeps freed memory in quarantine (256 MiB by default) and shadows all of it.
constexpr uint64_t kAllocatorSlack = 768 * kMiB;
constexpr bool kSanitized = true;
#else
constexpr uint64_t kAllocatorSlack = 64 * kMiB;
constexpr bool kSanitized = false;
#endif

uint64_t rss_bytes(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

// Connections to the daemon's port that it has not closed yet (its side ESTABLISHED or CLOSE_WAIT),
// from the kernel's table of IPv4 TCP sockets.
size_t connections_held(int port) {
    std::ifstream table("/proc/net/tcp");
    std::string line;
    std::getline(table, line);  // the column names
    size_t held = 0;
    while (std::getline(table, line)) {
        unsigned local_address = 0, local = 0, state = 0;
        if (std::sscanf(line.c_str(), " %*u: %8X:%4X %*8X:%*4X %2X", &local_address, &local, &state) != 3) continue;
        if (int(local) == port && (state == 0x01 || state == 0x08)) ++held;
    }
    return held;
}

// A raw loopback client that writes without blocking and reads only when told.
class RawClient {
public:
    explicit RawClient(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~RawClient() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;

    bool connected() const { return fd_ >= 0; }
    void queue(const std::string& bytes) { pending_ += bytes; }
    // Writes what the socket takes now; false once the peer is gone.
    bool push() {
        while (!pending_.empty()) {
            ssize_t n = ::send(fd_, pending_.data(), pending_.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n > 0) {
                pending_.erase(0, static_cast<size_t>(n));
                continue;
            }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        }
        return true;
    }
    bool sent_all() const { return pending_.empty(); }
    // Everything that arrives within wait, or until the peer closes.
    std::string read_for(std::chrono::milliseconds wait) {
        std::string got;
        auto deadline = Clock::now() + wait;
        while (Clock::now() < deadline) {
            pollfd p{fd_, POLLIN, 0};
            int ms = static_cast<int>(
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
            if (::poll(&p, 1, ms > 0 ? ms : 0) <= 0) break;
            char chunk[4096];
            ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n <= 0) break;
            got.append(chunk, static_cast<size_t>(n));
        }
        return got;
    }

    // Reads and drops what the kernel still holds; true once the peer's end (or a reset) comes.
    bool wait_closed(std::chrono::milliseconds wait) {
        auto deadline = Clock::now() + wait;
        while (Clock::now() < deadline) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 100) < 0) return false;
            if (p.revents == 0) continue;
            char chunk[65536];
            if (::recv(fd_, chunk, sizeof chunk, 0) <= 0) return true;
        }
        return false;
    }

private:
    int fd_ = -1;
    std::string pending_;
};

class Backpressure : public DaemonTest {
protected:
    // A session of about 1 MB of events: each GET of it answers that much.
    void make_big_session() {
        create_session("big");
        std::string text(200'000, 'w');
        for (int i = 0; i < 5; ++i) append_text("big", text);
        auto answer = call("GET", session_path("big"));
        ASSERT_EQ(answer.status, 200);
        answer_bytes_ = answer.body.size();
        ASSERT_GT(answer_bytes_, 1'000'000u);
    }

    // The worst RSS over `wait` while clients keep pushing their requests.
    uint64_t peak_rss_while(std::vector<std::unique_ptr<RawClient>>& clients, std::chrono::milliseconds wait) {
        uint64_t peak = 0;
        auto deadline = Clock::now() + wait;
        while (Clock::now() < deadline) {
            for (auto& client : clients) client->push();
            peak = std::max(peak, rss_bytes(daemon_->pid()));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return peak;
    }

    // Latency of a small read through storage from a fresh client.
    std::pair<int, double> probe() {
        auto start = Clock::now();
        auto answer = http_once(daemon_->port(), "GET", session_path("small"));
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        return {answer ? answer->status : 0, ms};
    }

    std::optional<double> dropped(const std::string& reason) {
        return metric_value(call("GET", "/metrics").body,
                            "mnemo_http_connections_dropped_total{reason=\"" + reason + "\"}");
    }

    size_t answer_bytes_ = 0;
};

TEST_F(Backpressure, SlowReadersPipeliningLargeAnswersStayWithinTheOutputLimit) {
    constexpr uint64_t kOutputLimit = 256 * 1024;
    constexpr int kConnections = 20;
    constexpr int kRequestsEach = 100;
    start_daemon(base_config("  output_limit: 256KiB\n  send_timeout: 60s\n"));
    make_big_session();
    create_session("small");
    uint64_t baseline = rss_bytes(daemon_->pid());

    std::vector<std::unique_ptr<RawClient>> clients;
    std::string pipeline;
    for (int i = 0; i < kRequestsEach; ++i) pipeline += format_request("GET", session_path("big"));
    for (int i = 0; i < kConnections; ++i) {
        clients.push_back(std::make_unique<RawClient>(daemon_->port()));
        ASSERT_TRUE(clients.back()->connected());
        clients.back()->queue(pipeline);
    }
    uint64_t peak = peak_rss_while(clients, std::chrono::milliseconds(3000));
    auto [status, probe_ms] = probe();
    uint64_t during = rss_bytes(daemon_->pid());

    // Per connection: the limit, the answers of its requests in flight (at most 4) and one more.
    uint64_t bound = baseline + kConnections * (kOutputLimit + 5 * answer_bytes_) + kAllocatorSlack;
    std::printf(
        "[ figures ] slow readers: %d connections x %d pipelined GETs of %zu bytes (%.0f MiB asked for); "
        "RSS baseline %.1f MiB, peak %.1f MiB, bound %.1f MiB; probe %d in %.1f ms\n",
        kConnections, kRequestsEach, answer_bytes_,
        double(kConnections) * kRequestsEach * double(answer_bytes_) / double(kMiB), double(baseline) / kMiB,
        double(peak) / kMiB, double(bound) / kMiB, status, probe_ms);
    EXPECT_LE(peak, bound);
    EXPECT_EQ(status, 200);
    EXPECT_LT(probe_ms, 5000.0);

    clients.clear();
    auto settle = Clock::now() + std::chrono::seconds(5);
    uint64_t after = rss_bytes(daemon_->pid());
    while (Clock::now() < settle && after > baseline + 4 * kMiB) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        after = rss_bytes(daemon_->pid());
    }
    std::printf("[ figures ] slow readers gone: RSS %.1f MiB (during %.1f MiB)\n", double(after) / kMiB,
                double(during) / kMiB);
    if (!kSanitized) {
        EXPECT_LE(after, baseline + 32 * kMiB) << "memory kept after the connections closed";
    }
}

TEST_F(Backpressure, AReaderThatTakesNothingForTheSendTimeoutIsClosedAndCounted) {
    start_daemon(base_config("  output_limit: 256KiB\n  send_timeout: 1s\n"));
    make_big_session();
    EXPECT_EQ(dropped("send_timeout"), 0.0);
    RawClient stalled(daemon_->port());
    std::string pipeline;
    for (int i = 0; i < 30; ++i) pipeline += format_request("GET", session_path("big"));
    stalled.queue(pipeline);
    std::optional<double> count;
    auto deadline = Clock::now() + kPatience;
    while (Clock::now() < deadline) {
        stalled.push();
        count = dropped("send_timeout");
        if (count.value_or(0) >= 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    EXPECT_EQ(count, 1.0);
    EXPECT_TRUE(stalled.wait_closed(kPatience));
}

TEST_F(Backpressure, TricklingSocketsUpToMaxConnectionsGet408AndFreeTheirPlaces) {
    constexpr int kConnections = 20;
    start_daemon(base_config("  max_connections: 20\n  request_timeout: 1s\n  idle_timeout: 60s\n"));
    create_session("small");
    // The set-up's connections count against max_connections until the daemon has seen them close.
    size_t held = 0;
    ASSERT_TRUE(eventually([&] { return (held = connections_held(daemon_->port())) == 0; }))
        << held << " set-up connections still held by the daemon";
    uint64_t baseline = rss_bytes(daemon_->pid());
    std::vector<std::unique_ptr<RawClient>> tricklers;
    for (int i = 0; i < kConnections; ++i) {
        tricklers.push_back(std::make_unique<RawClient>(daemon_->port()));
        ASSERT_TRUE(tricklers.back()->connected());
        tricklers.back()->queue("GET /healthz HTTP/1.1\r\nHost: x\r\n");
        tricklers.back()->push();
    }
    // One header byte every 100 ms per socket, for well past the request timeout.
    uint64_t peak = 0;
    std::string header = "X-Slow: " + std::string(200, 's');
    for (size_t i = 0; i < 25; ++i) {
        for (auto& trickler : tricklers) {
            trickler->queue(header.substr(i, 1));
            trickler->push();
        }
        peak = std::max(peak, rss_bytes(daemon_->pid()));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    int answered_408 = 0;
    for (auto& trickler : tricklers) {
        std::string got = trickler->read_for(kPatience);  // returns as the daemon closes after its 408
        if (got.rfind("HTTP/1.1 408 ", 0) == 0 && got.find("\"request_timeout\"") != std::string::npos &&
            got.find("Connection: close") != std::string::npos) {
            ++answered_408;
        } else {
            ADD_FAILURE() << "a trickling socket got: " << got.substr(0, 300);
        }
    }
    // The tricklers are still open and still sending; a new client is served all the same.
    for (auto& trickler : tricklers) {
        trickler->queue("s");
        trickler->push();
    }
    auto [status, probe_ms] = probe();
    std::printf(
        "[ figures ] slowloris: %d trickling sockets at max_connections %d; %d answered 408; RSS baseline "
        "%.1f MiB, peak %.1f MiB; probe %d in %.1f ms\n",
        kConnections, kConnections, answered_408, double(baseline) / kMiB, double(peak) / kMiB, status, probe_ms);
    EXPECT_EQ(answered_408, kConnections);
    EXPECT_EQ(status, 200);
    EXPECT_LT(probe_ms, 5000.0);
    EXPECT_LE(peak, baseline + kConnections * 64 * 1024 + kAllocatorSlack);
    EXPECT_EQ(dropped("request_timeout"), double(kConnections));
}

}  // namespace
}  // namespace mnemo::integration
