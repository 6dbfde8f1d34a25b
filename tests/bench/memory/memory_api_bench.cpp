// BENCH.md workload G through mnemod's HTTP API (run_g.sh starts the daemon):
//   mnemo_bench_memory_api PORT PHASE [N=1000000] [queries=200] [connections=8] [questions file]
// PHASE load: N memories (clustered_vectors.h: 384 dims, user i % 1000, id
// m<i>; memory_texts.h: a sentence or two from the vocabulary of the
// questions, following the vector's topic) in batches of 100 per user,
// written by `connections` threads; prints memories/s. PHASE catchup: polls
// /metrics until the vector index holds N memories with nothing left to
// link; prints the seconds. PHASE recall, `connections` at once, query q
// asking question q % count of the questions file (one a line,
// search/questions.txt) and user q % 1000: per-user hybrid recall (the
// question and the query vector), app-wide semantic recall (the vector),
// per-user and app-wide keyword recall (the question); prints p50/p99 of
// each, the share of answers that hold a memory, and app-wide recall@10
// against the exact top-10 of the same vectors, computed here by a C++ loop
// (also timed, as reference). PHASE first: one hybrid recall, retried until
// it answers 200 (run_g.sh starts the clock when it starts the daemon).
// Besides the sentences, each phase prints one line "G phase=.. key=value .."
// that run_g.sh collects for its table (memory/table_g.py). A manual tool.
#include "clustered_vectors.h"
#include "http_client.h"
#include "memory_texts.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace {

using namespace mnemo::bench;
using mnemo::integration::HttpConnection;

constexpr size_t kBatch = 100;
constexpr const char* kSearchPath = "/v1/apps/bench/memories/search";

// A JSON string of plain text (the texts and questions are ASCII).
void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            fmt::format_to(std::back_inserter(out), "\\u{:04x}", int(c));
            continue;
        }
        out += c;
    }
    out += '"';
}

void append_vector(std::string& out, const float* values) {
    out += '[';
    for (size_t d = 0; d < kDimension; ++d) {
        if (d > 0) out += ',';
        fmt::format_to(std::back_inserter(out), "{:.6g}", values[d]);
    }
    out += ']';
}

std::string batch_body(const Dataset& data, size_t user, size_t first_round, size_t rounds) {
    std::string body = R"({"memories":[)";
    for (size_t r = first_round; r < first_round + rounds; ++r) {
        size_t i = r * kUsers + user;
        if (r > first_round) body += ',';
        fmt::format_to(std::back_inserter(body), R"({{"id":"m{}","text":)", i);
        append_json_string(body, memory_text(i, data.topics[i]));
        body += R"(,"embedding":)";
        append_vector(body, data.row(i));
        body += '}';
    }
    body += "]}";
    return body;
}

HttpConnection connect(int port) {
    auto connection = HttpConnection::tcp(port);
    if (!connection.connected()) {
        std::fprintf(stderr, "cannot connect to 127.0.0.1:%d: %s\n", port, connection.connect_error().c_str());
        std::exit(1);
    }
    return connection;
}

int load(int port, const Dataset& data, size_t connections) {
    size_t rounds = data.count / kUsers;
    std::atomic<size_t> next_user{0}, written{0}, failures{0};
    auto start = Clock::now();
    std::vector<std::thread> threads;
    for (size_t t = 0; t < connections; ++t) {
        threads.emplace_back([&] {
            auto connection = connect(port);
            for (size_t user = next_user++; user < kUsers; user = next_user++) {
                for (size_t round = 0; round < rounds; round += kBatch) {
                    size_t count = std::min(kBatch, rounds - round);
                    auto body = batch_body(data, user, round, count);
                    auto answer = connection.request("POST", fmt::format("/v1/apps/bench/users/user{}/memories", user),
                                                     body, {{"Content-Type", "application/json"}});
                    if (!answer || answer->status != 200) {
                        if (failures++ < 3) {
                            std::fprintf(stderr, "write failed: %d %s\n", answer ? answer->status : 0,
                                         answer ? answer->body.substr(0, 300).c_str() : "no answer");
                        }
                        connection = connect(port);
                        continue;
                    }
                    written += count;
                }
            }
        });
    }
    for (auto& thread : threads) thread.join();
    double seconds = seconds_since(start);
    std::printf("load: %zu memories in %.1f s: %.0f memories/s (%zu connections, batches of %zu), %zu failed batches\n",
                written.load(), seconds, double(written) / seconds, connections, kBatch, failures.load());
    std::printf("G phase=load memories=%zu seconds=%.1f rate=%.0f failed=%zu\n", written.load(), seconds,
                double(written) / seconds, failures.load());
    return failures == 0 ? 0 : 1;
}

// A gauge's value in the /metrics text, or -1 when absent.
double gauge(const std::string& text, std::string_view name) {
    size_t at = 0;
    while ((at = text.find(name, at)) != std::string::npos) {
        bool line_start = at == 0 || text[at - 1] == '\n';
        size_t after = at + name.size();
        if (line_start && after < text.size() && text[after] == ' ') return std::atof(text.c_str() + after + 1);
        at = after;
    }
    return -1;
}

int catchup(int port, size_t n) {
    auto start = Clock::now();
    auto connection = connect(port);
    while (true) {
        auto answer = connection.request("GET", "/metrics");
        if (!answer || answer->status != 200) {
            std::fprintf(stderr, "GET /metrics failed\n");
            return 1;
        }
        double memories = gauge(answer->body, "mnemo_memory_index_memories");
        double tail = gauge(answer->body, "mnemo_memory_index_tail");
        if (memories < 0 || tail < 0) {
            std::fprintf(stderr, "/metrics has no mnemo_memory_index_memories or _tail gauge\n");
            return 1;
        }
        if (memories >= double(n) && tail == 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    double seconds = seconds_since(start);
    std::printf("catch-up: the index held every memory, linked, %.1f s after the load ended\n", seconds);
    std::printf("G phase=catchup seconds=%.1f\n", seconds);
    return 0;
}

// The memory numbers of an answer's ids ("m<i>"), in answer order.
std::vector<uint64_t> ids_of(const std::string& body) {
    std::vector<uint64_t> ids;
    const std::string marker = R"("id":"m)";
    for (size_t at = body.find(marker); at != std::string::npos; at = body.find(marker, at + 1)) {
        ids.push_back(std::strtoull(body.c_str() + at + marker.size(), nullptr, 10));
    }
    return ids;
}

std::vector<std::string> read_questions(const std::string& path) {
    std::vector<std::string> questions;
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
        if (!line.empty()) questions.push_back(line);
    }
    if (questions.empty()) {
        std::fprintf(stderr, "no questions in '%s' (one a line: tests/bench/search/questions.txt)\n", path.c_str());
        std::exit(2);
    }
    return questions;
}

enum class Recall { user_hybrid, app_semantic, user_keyword, app_keyword };

std::string recall_body(const Dataset& data, const std::vector<std::string>& questions, size_t q, Recall kind) {
    bool per_user = kind == Recall::user_hybrid || kind == Recall::user_keyword;
    std::string body = fmt::format(R"({{"mode":"{}","limit":10,)", kind == Recall::user_hybrid    ? "hybrid"
                                                                  : kind == Recall::app_semantic ? "semantic"
                                                                                                  : "keyword");
    if (per_user) fmt::format_to(std::back_inserter(body), R"("user":"{}",)", user_of(q));
    if (kind != Recall::app_semantic) {
        body += R"("query":)";
        append_json_string(body, questions[q % questions.size()]);
        body += ',';
    }
    if (kind == Recall::user_hybrid || kind == Recall::app_semantic) {
        body += R"("embedding":)";
        append_vector(body, data.query(q));
    } else {
        body.pop_back();  // the comma
    }
    body += '}';
    return body;
}

struct RecallRun {
    Latency latency;
    std::vector<std::vector<uint64_t>> answers;
    size_t failures = 0;
    size_t found = 0;  // answers holding at least one memory
};

RecallRun run_recalls(int port, const Dataset& data, const std::vector<std::string>& questions, size_t queries,
                      size_t connections, Recall kind) {
    RecallRun run;
    run.answers.resize(queries);
    std::mutex mutex;
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (size_t t = 0; t < connections; ++t) {
        threads.emplace_back([&] {
            auto connection = connect(port);
            for (size_t q = next++; q < queries; q = next++) {
                auto body = recall_body(data, questions, q, kind);
                auto start = Clock::now();
                auto answer = connection.request("POST", kSearchPath, body, {{"Content-Type", "application/json"}});
                double ms = seconds_since(start) * 1e3;
                std::lock_guard lock(mutex);
                if (!answer || answer->status != 200) {
                    if (run.failures++ < 3) {
                        std::fprintf(stderr, "recall failed: %d %s\n", answer ? answer->status : 0,
                                     answer ? answer->body.substr(0, 300).c_str() : "no answer");
                    }
                    if (!answer) connection = connect(port);
                    continue;
                }
                run.latency.ms.push_back(ms);
                run.answers[q] = ids_of(answer->body);
                run.found += run.answers[q].empty() ? 0 : 1;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    return run;
}

void print_run(const char* name, const char* kind, RecallRun& run, size_t queries, size_t connections) {
    double p50 = run.latency.percentile(0.5), p99 = run.latency.percentile(0.99);
    double found = double(run.found) / double(queries);
    std::printf("%s: p50 %.2f ms, p99 %.2f ms, %.0f%% of answers hold a memory (%zu connections, %zu failed)\n", name,
                p50, p99, 100 * found, connections, run.failures);
    std::printf("G phase=recall kind=%s p50_ms=%.3f p99_ms=%.3f found=%.3f failed=%zu\n", kind, p50, p99, found,
                run.failures);
}

int recall(int port, const Dataset& data, const std::vector<std::string>& questions, size_t queries,
           size_t connections) {
    Latency exact;
    std::vector<std::vector<uint64_t>> truth;
    for (size_t q = 0; q < queries; ++q) {
        auto start = Clock::now();
        truth.push_back(exact_top(data, data.query(q), SIZE_MAX));
        exact.ms.push_back(seconds_since(start) * 1e3);
    }
    auto user_run = run_recalls(port, data, questions, queries, connections, Recall::user_hybrid);
    auto app_run = run_recalls(port, data, questions, queries, connections, Recall::app_semantic);
    auto user_keyword = run_recalls(port, data, questions, queries, connections, Recall::user_keyword);
    auto app_keyword = run_recalls(port, data, questions, queries, connections, Recall::app_keyword);
    double found = 0;
    for (size_t q = 0; q < queries; ++q) {
        std::unordered_set<uint64_t> want(truth[q].begin(), truth[q].end());
        for (uint64_t id : app_run.answers[q]) found += double(want.count(id));
    }
    double exact_p50 = exact.percentile(0.5);
    print_run("per-user hybrid recall", "user_hybrid", user_run, queries, connections);
    std::printf(
        "app-wide semantic recall: p50 %.2f ms, p99 %.2f ms, recall@10 %.3f against exact; exact C++ scan p50 %.1f "
        "ms (%.1fx the API's p50) (%zu failed)\n",
        app_run.latency.percentile(0.5), app_run.latency.percentile(0.99), found / double(queries * kTopK), exact_p50,
        exact_p50 / app_run.latency.percentile(0.5), app_run.failures);
    std::printf("G phase=recall kind=app_semantic p50_ms=%.3f p99_ms=%.3f recall10=%.3f exact_p50_ms=%.3f failed=%zu\n",
                app_run.latency.percentile(0.5), app_run.latency.percentile(0.99), found / double(queries * kTopK),
                exact_p50, app_run.failures);
    print_run("per-user keyword recall", "user_keyword", user_keyword, queries, connections);
    print_run("app-wide keyword recall", "app_keyword", app_keyword, queries, connections);
    size_t failures = user_run.failures + app_run.failures + user_keyword.failures + app_keyword.failures;
    return failures == 0 ? 0 : 1;
}

int first_answer(int port, const Dataset& data, const std::vector<std::string>& questions) {
    auto body = recall_body(data, questions, 0, Recall::user_hybrid);
    while (true) {
        auto connection = HttpConnection::tcp(port);
        if (connection.connected()) {
            auto answer = connection.request("POST", kSearchPath, body, {{"Content-Type", "application/json"}});
            if (answer && answer->status == 200) return 0;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s PORT load|catchup|recall|first [N] [queries] [connections] [questions file]\n",
                     argv[0]);
        return 2;
    }
    int port = std::atoi(argv[1]);
    std::string phase = argv[2];
    size_t n = argc > 3 ? std::stoull(argv[3]) : 1'000'000;
    size_t queries = argc > 4 ? std::stoull(argv[4]) : 200;
    size_t connections = argc > 5 ? std::stoull(argv[5]) : 8;
    std::string questions_path = argc > 6 ? argv[6] : "tests/bench/search/questions.txt";
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (n % kUsers != 0) {
        std::fprintf(stderr, "N must be a multiple of %zu (memories per user are equal)\n", kUsers);
        return 2;
    }
    if (phase == "catchup") return catchup(port, n);
    Dataset data = make_dataset(phase == "load" || phase == "recall" ? n : 0, phase == "first" ? 1 : queries);
    if (phase == "load") return load(port, data, connections);
    if (phase == "recall") return recall(port, data, read_questions(questions_path), queries, connections);
    if (phase == "first") return first_answer(port, data, read_questions(questions_path));
    std::fprintf(stderr, "unknown phase '%s'\n", phase.c_str());
    return 2;
}
