/*
 * console/admin_call.h -- how an admin API function reaches the daemon.
 *
 * One Admin per console Lua state, on its chunk thread. A function of the
 * admin API reads its Lua arguments first, then runs its work where the
 * HTTP API would (storage through the Executor, reached on the loop via
 * LoopCall; everything loop-owned as a loop task), and finally pushes the
 * answer decoded from its JSON body, or raises its error as
 * "<code>: <message>" at the caller's chunk line. Answers and error texts
 * are held here rather than in C++ locals because a Lua error unwinds with
 * longjmp, which runs no destructors.
 */
#pragma once

#include "console/admin_host.h"
#include "console/loop_call.h"
#include "core/export_import.h"

#include <lua.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mnemo::console {

class Admin {
public:
    Admin(AdminHost& host, LoopCall& calls) : host_(host), calls_(calls) {}
    static Admin& of(lua_State* L);
    void bind(lua_State* L);  // makes `of` find this

    using Operation = std::function<core::Outcome(const core::Env&)>;
    // Runs op as the HTTP API runs storage work; the answer is left in `outcome`.
    void storage(Operation op);
    // Runs op on the worker pool, as the memory routes run recall, with the
    // daemon's memory links (null: the backend keeps no memories).
    using MemoryOperation = std::function<core::Outcome(const core::Env&, const memory::MemoryLinks*)>;
    void storage_with_memories(MemoryOperation op);
    // Runs task on the loop thread (the host is loop-owned); the answer is left in `outcome`.
    using LoopTask = std::function<void(AdminHost& host, LoopCall::Done done)>;
    void on_loop(LoopTask task);
    // Runs a long storage job (export, import) on this chunk thread: a blocking backend is called
    // from here, a non-blocking one call by call on the loop (`call`), so the loop is never held
    // for more than one storage call. The answer is left in `outcome`.
    using Transfer = std::function<core::Outcome(const core::Env& env, const core::StorageCall& call)>;
    void transfer(const Transfer& job);

    // The outcome's body as Lua values (true for an empty body), or its error raised.
    int push_outcome(lua_State* L);
    // Pushes the outcome's body and then its field `name`; raises on an error outcome.
    int push_outcome_field(lua_State* L, const char* name);
    // Keeps `text` for raise().
    void fail(std::string text) { error_ = std::move(text); }
    int raise(lua_State* L);

    core::Outcome outcome;

private:
    core::StorageCall loop_storage_call(const storage::Backend& backend);

    AdminHost& host_;
    LoopCall& calls_;
    std::string error_;
};

// Argument readers; each raises a Lua error naming the function and argument.
const char* check_name(lua_State* L, int index, const char* what);
// A field of the options table at `index` (absent or nil table: the fallback).
std::optional<int64_t> opt_integer(lua_State* L, int index, const char* field);
const char* opt_name(lua_State* L, int index, const char* field);
bool opt_flag(lua_State* L, int index, const char* field);
// `limit` by docs/api.md's rule: above max reduced to it, 0 or negative an error.
int64_t opt_limit(lua_State* L, int index, int64_t fallback, int64_t maximum);

// Registers `functions` as the global table `name` (merged into an existing one).
void register_table(lua_State* L, const char* name, const luaL_Reg* functions);

}  // namespace mnemo::console
