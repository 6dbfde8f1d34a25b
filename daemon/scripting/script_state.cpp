#include "scripting/script_state.h"

#include "scripting/sandbox.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace mnemo::scripting {
namespace {

// Instructions between two checks of the bounds, for a small state.
constexpr int kTickInstructions = 1000;
// What one tick may read: an instruction may compare two strings as long as the state holds in full.
constexpr uint64_t kBytesReadPerTick = 16u << 20;
// Bytes a bounded call may allocate between two reads of the clock.
constexpr size_t kGrowthBetweenClockChecks = 1 << 20;

constexpr std::array<std::string_view, kHookKinds> kHookNames = {"append",   "get",   "should_summarize", "summarize",
                                                                 "finalize", "reset", "extract"};

// The tick for a state holding `used` bytes: at most kBytesReadPerTick read between two checks.
int tick_for(uint64_t used) {
    uint64_t ticks = kBytesReadPerTick / std::max<uint64_t>(used, 1);
    return static_cast<int>(std::clamp<uint64_t>(ticks, 1, kTickInstructions));
}

}  // namespace

Bounds bounds_of(const config::ScriptsConfig& scripts) {
    return Bounds{scripts.instruction_limit, scripts.memory_limit, scripts.timeout_us};
}

std::string_view hook_name(Hook hook) {
    return kHookNames[static_cast<size_t>(hook)];
}

std::optional<Hook> hook_by_name(std::string_view name) {
    for (size_t i = 0; i < kHookNames.size(); ++i) {
        if (kHookNames[i] == name) return static_cast<Hook>(i);
    }
    return std::nullopt;
}

ScriptState::ScriptState(Bounds bounds, std::shared_ptr<const config::Config> config)
    : bounds_(bounds), config_(std::move(config)) {
    chain_refs_.fill(LUA_NOREF);
    L_ = lua_newstate(&ScriptState::allocate, this);
    if (L_ == nullptr) {
        open_error_ = "cannot create a Lua state: out of memory";
        return;
    }
    *static_cast<ScriptState**>(lua_getextraspace(L_)) = this;
    set_tick(L_, kTickInstructions);
    open_error_ = protect([this](lua_State* L) {
        install_sandbox(L);
        install_mnemo(L);
        lock_libraries(L);
        for (auto& ref : chain_refs_) {
            lua_newtable(L);
            ref = luaL_ref(L, LUA_REGISTRYINDEX);
        }
        return 0;
    });
}

ScriptState::~ScriptState() {
    if (L_ != nullptr) lua_close(L_);
}

ScriptState& ScriptState::of(lua_State* L) {
    return **static_cast<ScriptState**>(lua_getextraspace(L));
}

void ScriptState::set_config(std::shared_ptr<const config::Config> config) {
    bounds_ = bounds_of(config->scripts);
    config_ = std::move(config);
}

void* ScriptState::allocate(void* ud, void* ptr, size_t old_size, size_t new_size) {
    auto* self = static_cast<ScriptState*>(ud);
    size_t old_bytes = ptr != nullptr ? old_size : 0;
    if (new_size == 0) {
        std::free(ptr);
        self->used_ -= old_bytes;
        return nullptr;
    }
    uint64_t limit = self->bounds_.memory_limit;
    if (limit != 0 && new_size > old_bytes && self->used_ + (new_size - old_bytes) > limit) {
        self->memory_refused_ = true;
        return nullptr;
    }
    if (self->armed_ && new_size > old_bytes && self->past_deadline_while_growing(new_size - old_bytes)) {
        return nullptr;
    }
    void* block = std::realloc(ptr, new_size);
    if (block == nullptr) return nullptr;
    self->used_ = self->used_ - old_bytes + new_size;
    // Longer strings from this instruction on: checked more often at once, not only from the next tick.
    // Only when the tick halves, as lua_sethook restarts the count (the instructions since the last tick
    // go uncounted: a few thousand at most while a state grows); the hook lengthens it again, and
    // retunes a coroutine, whose hook is its own.
    if (self->armed_ && self->trip_message_.empty() && tick_for(self->used_) * 2 <= lua_gethookcount(self->L_)) {
        set_tick(self->L_, tick_for(self->used_));
    }
    return block;
}

// One instruction may copy a string as large as the memory limit (`s .. "x"`, string.rep), and the
// hook only runs between instructions: so growth is timed too. Past the deadline, growth is refused
// (Lua raises "not enough memory", reported as the timeout) and the next instruction raises.
bool ScriptState::past_deadline_while_growing(size_t bytes) {
    grown_ += bytes;
    if (trip_message_.empty() && grown_ >= kGrowthBetweenClockChecks) {
        grown_ = 0;
        if (bounds_.timeout_us > 0 && std::chrono::steady_clock::now() > deadline_) trip_message_ = timeout_message();
    }
    if (trip_message_.empty()) return false;
    set_tick(L_, 1);
    return true;
}

std::string ScriptState::timeout_message() const {
    return fmt::format("script exceeded scripts.timeout ({} ms)", static_cast<double>(bounds_.timeout_us) / 1000);
}

void ScriptState::set_tick(lua_State* L, int instructions) {
    lua_sethook(L, &ScriptState::count_hook, LUA_MASKCOUNT, instructions);
}

void ScriptState::count_hook(lua_State* L, lua_Debug*) {
    ScriptState& self = of(L);
    if (!self.armed_) return;
    self.spent_ += lua_gethookcount(L);  // this thread's tick: coroutines keep their own
    self.enforce(L);
    if (int tick = tick_for(self.used_); tick != lua_gethookcount(L)) set_tick(L, tick);
}

void ScriptState::charge(lua_State* L, int64_t instructions) {
    ScriptState& self = of(L);
    if (!self.armed_) return;
    self.spent_ += instructions;
    self.enforce(L);
}

void ScriptState::enforce(lua_State* L) {
    if (trip_message_.empty()) {
        int64_t limit = bounds_.instruction_limit;
        if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
            trip_message_ = cancel_message_;
        } else if (limit > 0 && spent_ > limit) {
            trip_message_ = fmt::format("script exceeded scripts.instruction_limit ({} instructions)", limit);
        } else if (bounds_.timeout_us > 0 && std::chrono::steady_clock::now() > deadline_) {
            trip_message_ = timeout_message();
        }
        if (trip_message_.empty()) return;
    }
    // From now on every instruction raises, so a pcall in the script cannot keep it running.
    set_tick(L, 1);
    luaL_error(L, "%s", trip_message_.c_str());
}

void ScriptState::arm() {
    armed_ = true;
    memory_refused_ = false;
    spent_ = 0;
    grown_ = 0;
    trip_message_.clear();
    running_hook.reset();
    deadline_ = std::chrono::steady_clock::now() + std::chrono::microseconds(bounds_.timeout_us);
    if (bounds_.timeout_us > 0 && shared_deadline_ && *shared_deadline_ < deadline_) deadline_ = *shared_deadline_;
    set_tick(L_, tick_for(used_));
}

void ScriptState::disarm() {
    armed_ = false;
    set_tick(L_, kTickInstructions);
}

std::optional<std::string> ScriptState::run_protected(Body body, void* data) {
    if (L_ == nullptr) return "no Lua state";
    int top = lua_gettop(L_);
    lua_pushcfunction(L_, [](lua_State* L) {
        auto* fn = reinterpret_cast<Body>(lua_touserdata(L, 1));
        void* arg = lua_touserdata(L, 2);
        lua_settop(L, 0);
        return fn(L, arg);
    });
    lua_pushlightuserdata(L_, reinterpret_cast<void*>(body));
    lua_pushlightuserdata(L_, data);
    std::optional<std::string> error;
    if (lua_pcall(L_, 2, 0, 0) != LUA_OK) {
        size_t length = 0;
        const char* text = lua_tolstring(L_, -1, &length);
        error = text != nullptr ? std::string(text, length) : std::string("a script raised a non-string error");
    }
    lua_settop(L_, top);
    return error;
}

std::optional<std::string> ScriptState::trip_reason(const std::string& error) const {
    if (!trip_message_.empty()) return trip_message_;
    // Lua may recover from a refused block with an emergency collection; only its memory error counts.
    if (memory_refused_ && error.find("not enough memory") != std::string::npos) {
        return fmt::format("script exceeded scripts.memory_limit ({} bytes)", bounds_.memory_limit);
    }
    return std::nullopt;
}

std::optional<std::string> ScriptState::protect(Body body, void* data) {
    return run_protected(body, data);
}

std::optional<std::string> ScriptState::bounded(Body body, void* data) {
    arm();
    auto error = run_protected(body, data);
    auto tripped = error ? trip_reason(*error) : std::nullopt;
    disarm();
    if (tripped) {
        error = *tripped;
        lua_gc(L_, LUA_GCCOLLECT);  // give a memory bomb's garbage back before the next call
    }
    return error;
}

void ScriptState::add_hook(Hook hook, int ref, std::string script) {
    hooks_[static_cast<size_t>(hook)].push_back(HookEntry{ref, std::move(script)});
}

std::string ScriptState::running_hook_script() const {
    if (!running_hook) return {};
    const auto& entries = hooks(running_hook->hook);
    return running_hook->position < entries.size() ? entries[running_hook->position].script : std::string();
}

void ScriptState::push_chain(Hook hook) const {
    lua_rawgeti(L_, LUA_REGISTRYINDEX, chain_refs_[static_cast<size_t>(hook)]);
}

}  // namespace mnemo::scripting
