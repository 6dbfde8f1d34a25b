#include "fake_embedder_server.h"

#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace mnemo::memory::testing {
namespace {

const std::string kScript = std::string(MNEMO_SOURCE_DIR) + "/tests/fixtures/fake_embedder.py";
constexpr const char* kPython = "/usr/bin/python3";

// Starts argv with stdout on a pipe; the pid and the pipe's read end.
std::pair<pid_t, int> spawn(const std::vector<std::string>& argv) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    // Built before fork: the child of a threaded process may only exec.
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], 1);
        ::close(fds[0]);
        ::close(fds[1]);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    return {pid, fds[0]};
}

std::string read_all(int fd) {
    std::string text;
    char buffer[4096];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(got));
    ::close(fd);
    return text;
}

std::string first_line(int fd) {
    std::string line;
    char c = 0;
    while (::read(fd, &c, 1) == 1 && c != '\n') line += c;
    return line;
}

std::string string_or_empty(simdjson::dom::element element) {
    std::string_view text;
    return element.get_string().get(text) == simdjson::SUCCESS ? std::string(text) : std::string();
}

int64_t int_or_zero(simdjson::dom::element element) {
    int64_t value = 0;
    return element.get_int64().get(value) == simdjson::SUCCESS ? value : 0;
}

}  // namespace

std::string make_temp_folder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mnemo-embed-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return pattern;
}

FakeEmbedderServer::FakeEmbedderServer(std::vector<std::string> options)
    : folder_(make_temp_folder()), record_path_(folder_ + "/requests.jsonl") {
    std::vector<std::string> argv = {kPython, kScript, "--record", record_path_};
    argv.insert(argv.end(), options.begin(), options.end());
    auto [pid, out] = spawn(argv);
    pid_ = pid;
    port_ = std::atoi(first_line(out).c_str());
    ::close(out);
    if (port_ == 0) throw std::runtime_error("fake_embedder.py did not print its port");
}

FakeEmbedderServer::~FakeEmbedderServer() {
    stop();
    std::filesystem::remove_all(folder_);
}

std::string FakeEmbedderServer::url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

void FakeEmbedderServer::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

std::vector<Recorded> FakeEmbedderServer::requests() const {
    std::vector<Recorded> requests;
    std::ifstream in(record_path_);
    std::string line;
    simdjson::dom::parser parser;
    while (std::getline(in, line)) {
        simdjson::dom::element entry;
        if (parser.parse(line).get(entry) != simdjson::SUCCESS) continue;  // a line still being written
        Recorded recorded;
        recorded.model = string_or_empty(entry["model"]);
        recorded.authorization = string_or_empty(entry["authorization"]);
        simdjson::dom::array inputs;
        if (entry["inputs"].get_array().get(inputs) == simdjson::SUCCESS) {
            for (simdjson::dom::element input : inputs) recorded.inputs.push_back(string_or_empty(input));
        }
        recorded.peer_port = int_or_zero(entry["peer"]);
        recorded.status = int_or_zero(entry["status"]);
        requests.push_back(std::move(recorded));
    }
    return requests;
}

bool FakeEmbedderServer::wait_for_requests(size_t count) const {
    for (int i = 0; i < 2000; ++i) {
        if (requests().size() >= count) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

std::vector<float> fake_vector(const std::string& text, int dimensions) {
    auto [pid, out] = spawn({kPython, kScript, "--dimensions", std::to_string(dimensions), "--embed", text});
    std::string printed = read_all(out);
    ::waitpid(pid, nullptr, 0);
    simdjson::dom::parser parser;
    simdjson::dom::array numbers;
    std::vector<float> vector;
    if (parser.parse(printed).get_array().get(numbers) != simdjson::SUCCESS) return vector;
    for (simdjson::dom::element number : numbers) {
        double value = 0;
        if (number.get_double().get(value) == simdjson::SUCCESS) vector.push_back(static_cast<float>(value));
    }
    return vector;
}

}  // namespace mnemo::memory::testing
