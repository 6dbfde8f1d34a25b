#include "writers.h"

#include "http_client.h"
#include "stored_events.h"

#include <optional>
#include <random>

namespace mnemo::soak {
namespace {

using integration::HttpConnection;

// Long enough for a daemon that waits out its storage's connect timeout before answering 503.
constexpr auto kAnswerWait = std::chrono::seconds(30);
constexpr auto kRefusedPause = std::chrono::milliseconds(20);
constexpr auto kNoDaemonPause = std::chrono::milliseconds(5);

}  // namespace

void Gate::open(int port) {
    std::lock_guard lock(mutex_);
    port_ = port;
    open_ = true;
    changed_.notify_all();
}

void Gate::close() {
    std::unique_lock lock(mutex_);
    open_ = false;
    changed_.wait(lock, [this] { return busy_ == 0; });
}

void Gate::finish() {
    std::lock_guard lock(mutex_);
    finished_ = true;
    changed_.notify_all();
}

bool Gate::enter(int* port) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return open_ || finished_; });
    if (finished_) return false;
    ++busy_;
    *port = port_;
    return true;
}

void Gate::leave() {
    std::lock_guard lock(mutex_);
    --busy_;
    changed_.notify_all();
}

std::vector<std::string> writer_sessions(int writer, int sessions) {
    std::vector<std::string> names;
    for (int s = 0; s < sessions; ++s) names.push_back("soak-w" + std::to_string(writer) + "-s" + std::to_string(s));
    return names;
}

Writers::Writers(int count, WriterOptions options, Gate& gate, Ledger& ledger)
    : options_(options), gate_(gate), ledger_(ledger), progress_(static_cast<size_t>(count)) {
    for (int w = 0; w < count; ++w) threads_.emplace_back([this, w] { run(w); });
}

Writers::~Writers() {
    join();
}

void Writers::join() {
    gate_.finish();
    for (auto& thread : threads_)
        if (thread.joinable()) thread.join();
}

std::vector<int64_t> Writers::progress() const {
    std::vector<int64_t> counts;
    for (const auto& count : progress_) counts.push_back(count.load());
    return counts;
}

std::vector<std::string> Writers::sessions() const {
    std::vector<std::string> all;
    for (size_t w = 0; w < threads_.size(); ++w) {
        auto mine = writer_sessions(static_cast<int>(w), options_.sessions);
        all.insert(all.end(), mine.begin(), mine.end());
    }
    return all;
}

void Writers::run(int writer) {
    std::mt19937 random(options_.seed * 7919u + static_cast<uint32_t>(writer));
    std::uniform_int_distribution<int> events(1, options_.max_events);
    std::uniform_int_distribution<int> text(32, options_.max_text);
    const auto sessions = writer_sessions(writer, options_.sessions);
    std::optional<HttpConnection> connection;
    int connected_port = 0;
    std::optional<size_t> current;  // the batch being sent until acknowledged
    std::string request, tag;
    int64_t made = 0;
    int port = 0;
    while (gate_.enter(&port)) {
        if (!current) {
            Batch batch;
            batch.tag = "w" + std::to_string(writer) + "-b" + std::to_string(made);
            batch.session = sessions[static_cast<size_t>(made++) % sessions.size()];
            for (int i = events(random); i > 0; --i) batch.text_lengths.push_back(static_cast<uint16_t>(text(random)));
            tag = batch.tag;
            request = integration::format_request("POST", integration::events_path(batch.session), batch_body(batch));
            current = ledger_.add(std::move(batch));
        }
        if (!connection || !connection->connected() || connected_port != port) {
            connection = HttpConnection::tcp(port);
            connected_port = port;
        }
        if (!connection->connected()) {  // killed and not yet back: the gate closes soon
            connection.reset();
            gate_.leave();
            std::this_thread::sleep_for(kNoDaemonPause);
            continue;
        }
        ledger_.sent(*current);
        auto response = connection->send_raw(request) ? connection->read_response(kAnswerWait) : std::nullopt;
        if (!response) {
            ledger_.unanswered();
            connection.reset();
        } else if (response->status == 200) {
            ledger_.acknowledged(*current, integration::appended_seqs(response->body));
            current.reset();
            ++progress_[static_cast<size_t>(writer)];
        } else if (response->status == 503 || response->status == 429) {
            ledger_.refused();
        } else {
            // A 409 here means a retry found part of its batch stored: the audit counts it as partial.
            ledger_.unexpected(tag + ": HTTP " + std::to_string(response->status) + " " +
                               response->body.substr(0, 300));
            current.reset();
        }
        bool pause = response && response->status != 200;
        gate_.leave();
        if (pause) std::this_thread::sleep_for(kRefusedPause);
    }
}

}  // namespace mnemo::soak
