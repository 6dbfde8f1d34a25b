/*
 * scripting/script_state.h -- one sandboxed, bounded Lua 5.4 state.
 *
 * Owns a lua_State with a memory-limited allocator (scripts.memory_limit),
 * the allow-list environment of SCRIPTING.md, the `mnemo` table, the hook
 * chains registered through mnemo.on (held as registry references), and the
 * per-call bounds: an instruction-count hook that checks
 * scripts.instruction_limit, a steady-clock deadline (scripts.timeout) and
 * an optional cancellation flag (a console connection that closed). C
 * functions that can run long inside one call (bounded_stdlib.h) report
 * their work through charge(), so the same bounds fire there, and the
 * allocator reads the clock every MiB a call allocates (one instruction
 * can copy a string as large as the memory limit). One instruction can
 * also read every string the state holds (`s == t` and `s < t` compare long
 * strings in full), so the hook's tick shrinks as the state grows: a
 * check at most every 16 MiB that instructions can read, down to one per
 * instruction. Several calls may share one deadline (the append hooks of
 * one request). Once a bound trips, every later hook tick raises again
 * until the call has unwound, so a script's own pcall cannot swallow it.
 * Every host-side Lua call runs protected, so an out-of-memory error never
 * aborts the daemon. A state belongs to one thread: the loop's, or one
 * worker's.
 */
#pragma once

#include "config/config.h"

#include <lua.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::scripting {

struct Bounds {
    int64_t instruction_limit = 0;  // per call; 0 = unlimited
    uint64_t memory_limit = 0;      // per state, bytes; 0 = unlimited
    int64_t timeout_us = 0;         // per call; 0 = unlimited
};
Bounds bounds_of(const config::ScriptsConfig& scripts);

enum class Hook { Append, Get, ShouldSummarize, Summarize, Finalize, Reset, Extract };
inline constexpr size_t kHookKinds = 7;
std::string_view hook_name(Hook hook);
std::optional<Hook> hook_by_name(std::string_view name);

struct HookEntry {
    int ref = LUA_NOREF;  // the function, in the registry
    std::string script;   // the file that registered it, relative to scripts.dir
};

class ScriptState {
public:
    ScriptState(Bounds bounds, std::shared_ptr<const config::Config> config);
    ~ScriptState();
    ScriptState(const ScriptState&) = delete;
    ScriptState& operator=(const ScriptState&) = delete;

    static ScriptState& of(lua_State* L);
    lua_State* lua() const { return L_; }
    // Set when opening the libraries failed (a memory_limit too small for Lua itself).
    const std::optional<std::string>& open_error() const { return open_error_; }

    // Runs body(L, data) as a protected call with no bounds (host work:
    // building tables, reading results). Returns the error text, or nullopt.
    using Body = int (*)(lua_State* L, void* data);
    std::optional<std::string> protect(Body body, void* data);
    // The same under the per-call bounds (instructions, time; memory always).
    std::optional<std::string> bounded(Body body, void* data);
    // Lambda forms; the lambda may raise Lua errors, so it keeps no locals
    // with destructors across Lua calls that can raise.
    template <typename F>
    std::optional<std::string> protect(F&& f) {
        return protect(&invoke<F>, &f);
    }
    template <typename F>
    std::optional<std::string> bounded(F&& f) {
        return bounded(&invoke<F>, &f);
    }

    void set_config(std::shared_ptr<const config::Config> config);
    const std::shared_ptr<const config::Config>& config() const { return config_; }
    void set_bounds(Bounds bounds) { bounds_ = bounds; }
    uint64_t memory_limit() const { return bounds_.memory_limit; }
    // While set, every bounded call ends by `end` at the latest, as if its scripts.timeout were shorter:
    // the calls one request makes (an append hook per event) share one scripts.timeout.
    void share_deadline(std::optional<std::chrono::steady_clock::time_point> end) { shared_deadline_ = end; }
    // While `flag` is set, a bounded call stops with `message` at its next check.
    void set_cancel(const std::atomic<bool>* flag, std::string message) {
        cancel_ = flag;
        cancel_message_ = std::move(message);
    }
    // Counts `instructions` of work done inside a C function against the running
    // call's bounds; raises the bound's Lua error when one is passed.
    static void charge(lua_State* L, int64_t instructions);

    // Hook chains (mnemo.on). Functions are also kept in order in a Lua table per hook.
    void add_hook(Hook hook, int ref, std::string script);
    bool has(Hook hook) const { return !hooks_[static_cast<size_t>(hook)].empty(); }
    const std::vector<HookEntry>& hooks(Hook hook) const { return hooks_[static_cast<size_t>(hook)]; }
    // Pushes the chain's Lua table {fn1, fn2, ...}.
    void push_chain(Hook hook) const;
    // The script now being loaded (for mnemo.on's record).
    std::string loading_script;

    // Registry references of the metatables that mark decoded JSON arrays and objects.
    int array_mt = LUA_NOREF;
    int object_mt = LUA_NOREF;
    // A weak-keyed table: decoded JSON object -> its keys in document order, so that
    // encoding it again keeps that order. Only where keep_key_order() was called
    // (the console, whose results are read by people); LUA_NOREF elsewhere.
    int key_order = LUA_NOREF;
    // Shared metatables of the append hook's lazy ctx.event and ctx.session (append_hooks.cpp).
    int event_proxy_mt = LUA_NOREF;
    int session_proxy_mt = LUA_NOREF;
    // The hook call now running, for metamethods that read its data.
    void* hook_data = nullptr;
    // The hook of a chain that was entered last (hook_chain.cpp), none at the start of each bounded call:
    // after a call that failed, the one it failed in (a bound may trip inside a C function, or in the
    // allocator, where Lua's stack cannot be read). By position: a hook may add hooks (mnemo.on).
    struct RunningHook {
        Hook hook;
        size_t position;
    };
    std::optional<RunningHook> running_hook;
    // The script that registered running_hook ("hooks/slow.lua"); empty when there is none.
    std::string running_hook_script() const;
    // Scratch space for encoders that must not own memory across a Lua error.
    std::string scratch;
    uint64_t memory_used() const { return used_; }

private:
    template <typename F>
    static int invoke(lua_State* L, void* data) {
        return (*static_cast<F*>(data))(L);
    }
    static void* allocate(void* ud, void* ptr, size_t old_size, size_t new_size);
    static void count_hook(lua_State* L, lua_Debug* ar);
    void enforce(lua_State* L);
    static void set_tick(lua_State* L, int instructions);
    bool past_deadline_while_growing(size_t bytes);
    std::string timeout_message() const;
    void arm();
    void disarm();
    std::optional<std::string> run_protected(Body body, void* data);
    std::optional<std::string> trip_reason(const std::string& error) const;

    lua_State* L_ = nullptr;
    Bounds bounds_;
    std::shared_ptr<const config::Config> config_;
    std::array<std::vector<HookEntry>, kHookKinds> hooks_;
    std::array<int, kHookKinds> chain_refs_{};
    std::optional<std::string> open_error_;
    uint64_t used_ = 0;
    // Per bounded call.
    bool armed_ = false;
    bool memory_refused_ = false;
    int64_t spent_ = 0;  // instructions, counted by ticks and charges
    size_t grown_ = 0;   // bytes allocated since the clock was last read
    std::chrono::steady_clock::time_point deadline_{};
    std::string trip_message_;
    std::optional<std::chrono::steady_clock::time_point> shared_deadline_;
    const std::atomic<bool>* cancel_ = nullptr;
    std::string cancel_message_;
};

}  // namespace mnemo::scripting
