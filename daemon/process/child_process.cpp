#include "process/child_process.h"

#include <fmt/format.h>
#include <uv.h>

#include <csignal>

namespace mnemo::process {
namespace {

constexpr uint64_t kStopPollMs = 50;

struct Child {
    uv_loop_t loop{};
    uv_process_t process{};
    uv_pipe_t in{}, out{};
    uv_timer_t timer{};
    uv_write_t write{};
    uv_buf_t input{};
    const CommandSpec* spec = nullptr;
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
        size_t cap = child->spec->max_output_bytes;
        if (child->output.size() > cap) child->kill(fmt::format("it printed more than {} bytes", cap));
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
        child->kill(fmt::format("it ran longer than {} ({} ms)", child->spec->timeout_key, child->timeout_ms));
    }
}

std::optional<std::string> spawn(Child& child) {
    const std::vector<std::string>& argv = child.spec->argv;
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
    if (rc != 0) return fmt::format("cannot run {} '{}': {}", child.spec->argv_key, argv[0], uv_strerror(rc));
    return std::nullopt;
}

// The loop must really close (its signal watchers leave libuv's process-wide
// table), so a handle still open here is closed and run to its end.
void close_loop(uv_loop_t& loop) {
    if (uv_loop_close(&loop) != UV_EBUSY) return;
    uv_walk(
        &loop, [](uv_handle_t* handle, void*) { close_handle(handle); }, nullptr);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

std::optional<std::string> failure(const Child& child) {
    std::string_view key = child.spec->argv_key;
    const std::string& program = child.spec->argv.front();
    if (child.killed_because) return fmt::format("{} '{}' was killed: {}", key, program, *child.killed_because);
    if (child.term_signal != 0) return fmt::format("{} '{}' died of signal {}", key, program, child.term_signal);
    if (child.exit_status != 0) return fmt::format("{} '{}' exited with status {}", key, program, child.exit_status);
    return std::nullopt;
}

}  // namespace

CommandResult run_command(const CommandSpec& spec, const std::atomic<bool>& stopping) {
    if (spec.argv.empty()) return {fmt::format("{} is empty; set the argv to run", spec.argv_key), {}};
    Child child;
    child.spec = &spec;
    child.stopping = &stopping;
    child.timeout_ms = static_cast<uint64_t>(spec.timeout_us / 1000);
    uv_loop_init(&child.loop);
    uv_pipe_init(&child.loop, &child.in, 0);
    uv_pipe_init(&child.loop, &child.out, 0);
    child.in.data = child.out.data = &child;
    CommandResult outcome;
    if (auto error = spawn(child)) {
        outcome.error = std::move(error);
        // A failed uv_spawn still holds its handle: left open, the loop could
        // not close and libuv's SIGCHLD handler would later reach this freed stack.
        close_handle(reinterpret_cast<uv_handle_t*>(&child.process));
        close_handle(reinterpret_cast<uv_handle_t*>(&child.in));
        close_handle(reinterpret_cast<uv_handle_t*>(&child.out));
    } else {
        uv_timer_init(&child.loop, &child.timer);
        child.timer.data = &child;
        uv_timer_start(&child.timer, on_tick, kStopPollMs, kStopPollMs);
        child.input = uv_buf_init(const_cast<char*>(spec.input.data()), static_cast<unsigned>(spec.input.size()));
        child.write.data = &child;
        uv_write(&child.write, reinterpret_cast<uv_stream_t*>(&child.in), &child.input, 1, on_written);
        uv_read_start(reinterpret_cast<uv_stream_t*>(&child.out), on_alloc, on_read);
    }
    uv_run(&child.loop, UV_RUN_DEFAULT);
    close_loop(child.loop);
    if (!outcome.error) outcome.error = failure(child);
    if (!outcome.error) outcome.output = std::move(child.output);
    return outcome;
}

}  // namespace mnemo::process
