#include "scripting/command_summarizer.h"

#include <fmt/format.h>
#include <uv.h>

#include <csignal>

namespace mnemo::scripting {
namespace {

constexpr uint64_t kStopPollMs = 50;

struct Child {
    uv_loop_t loop{};
    uv_process_t process{};
    uv_pipe_t in{}, out{};
    uv_timer_t timer{};
    uv_write_t write{};
    uv_buf_t input{};
    const std::atomic<bool>* stopping = nullptr;
    std::string output;
    int64_t exit_status = 0;
    int term_signal = 0;
    bool exited = false;
    uint64_t waited_ms = 0, timeout_ms = 0;
    std::optional<std::string> killed_because;

    // The whole process group: a shell's children die with it and release stdout.
    void kill(std::string reason) {
        if (exited || killed_because) return;
        killed_because = std::move(reason);
        uv_kill(-process.pid, SIGKILL);
    }
};

void close_handle(uv_handle_t* handle) {
    if (!uv_is_closing(handle)) uv_close(handle, nullptr);
}

void on_exit(uv_process_t* process, int64_t status, int signal) {
    auto* child = static_cast<Child*>(process->data);
    child->exited = true;
    child->exit_status = status;
    child->term_signal = signal;
    close_handle(reinterpret_cast<uv_handle_t*>(&child->timer));
    close_handle(reinterpret_cast<uv_handle_t*>(process));
    if (child->killed_because) {  // what it printed no longer matters
        close_handle(reinterpret_cast<uv_handle_t*>(&child->in));
        close_handle(reinterpret_cast<uv_handle_t*>(&child->out));
    }
}

void on_alloc(uv_handle_t*, size_t suggested, uv_buf_t* buf) {
    buf->base = new char[suggested];
    buf->len = suggested;
}

void on_read(uv_stream_t* stream, ssize_t n, const uv_buf_t* buf) {
    auto* child = static_cast<Child*>(stream->data);
    if (n > 0) {
        child->output.append(buf->base, static_cast<size_t>(n));
        if (child->output.size() > kMaxOutputBytes)
            child->kill(fmt::format("it printed more than {} bytes", kMaxOutputBytes));
    } else if (n < 0) {
        close_handle(reinterpret_cast<uv_handle_t*>(stream));
    }
    delete[] buf->base;
}

void on_written(uv_write_t* request, int) {
    auto* child = static_cast<Child*>(request->data);
    close_handle(reinterpret_cast<uv_handle_t*>(&child->in));
}

void on_tick(uv_timer_t* timer) {
    auto* child = static_cast<Child*>(timer->data);
    child->waited_ms += kStopPollMs;
    if (child->stopping->load()) child->kill("mnemod is stopping");
    if (child->timeout_ms != 0 && child->waited_ms >= child->timeout_ms) {
        child->kill(fmt::format("it ran longer than summary.timeout ({} ms)", child->timeout_ms));
    }
}

std::optional<std::string> spawn(Child& child, const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    uv_stdio_container_t stdio[3];
    stdio[0].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_READABLE_PIPE);
    stdio[0].data.stream = reinterpret_cast<uv_stream_t*>(&child.in);
    stdio[1].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
    stdio[1].data.stream = reinterpret_cast<uv_stream_t*>(&child.out);
    stdio[2].flags = UV_INHERIT_FD;
    stdio[2].data.fd = 2;
    uv_process_options_t options{};
    options.file = args[0];
    options.args = args.data();
    options.exit_cb = on_exit;
    options.stdio = stdio;
    options.stdio_count = 3;
    options.flags = UV_PROCESS_DETACHED;  // its own process group, killed as a whole
    child.process.data = &child;
    int rc = uv_spawn(&child.loop, &child.process, &options);
    if (rc != 0) return fmt::format("cannot run summary.command '{}': {}", argv[0], uv_strerror(rc));
    return std::nullopt;
}

std::optional<std::string> failure(const Child& child, const std::string& program) {
    if (child.killed_because) return fmt::format("summary.command '{}' was killed: {}", program, *child.killed_because);
    if (child.term_signal != 0)
        return fmt::format("summary.command '{}' died of signal {}", program, child.term_signal);
    if (child.exit_status != 0) {
        return fmt::format("summary.command '{}' exited with status {}", program, child.exit_status);
    }
    return std::nullopt;
}

}  // namespace

std::string trim(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\f\v";
    auto first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return {};
    auto last = text.find_last_not_of(kSpace);
    return std::string(text.substr(first, last - first + 1));
}

CommandOutcome run_summary_command(const std::vector<std::string>& argv, const std::string& input, int64_t timeout_us,
                                   const std::atomic<bool>& stopping) {
    if (argv.empty()) return {"summary.summarizer is command but summary.command is empty; set the argv to run", {}};
    Child child;
    child.stopping = &stopping;
    child.timeout_ms = static_cast<uint64_t>(timeout_us / 1000);
    uv_loop_init(&child.loop);
    uv_pipe_init(&child.loop, &child.in, 0);
    uv_pipe_init(&child.loop, &child.out, 0);
    child.in.data = child.out.data = &child;
    CommandOutcome outcome;
    if (auto error = spawn(child, argv)) {
        outcome.error = std::move(error);
        close_handle(reinterpret_cast<uv_handle_t*>(&child.in));
        close_handle(reinterpret_cast<uv_handle_t*>(&child.out));
    } else {
        uv_timer_init(&child.loop, &child.timer);
        child.timer.data = &child;
        uv_timer_start(&child.timer, on_tick, kStopPollMs, kStopPollMs);
        child.input = uv_buf_init(const_cast<char*>(input.data()), static_cast<unsigned>(input.size()));
        child.write.data = &child;
        uv_write(&child.write, reinterpret_cast<uv_stream_t*>(&child.in), &child.input, 1, on_written);
        uv_read_start(reinterpret_cast<uv_stream_t*>(&child.out), on_alloc, on_read);
    }
    uv_run(&child.loop, UV_RUN_DEFAULT);
    uv_loop_close(&child.loop);
    if (!outcome.error) outcome.error = failure(child, argv[0]);
    if (!outcome.error) outcome.text = trim(child.output);
    return outcome;
}

}  // namespace mnemo::scripting
