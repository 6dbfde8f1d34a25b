#include "console/admin_call.h"

#include "core/ids.h"
#include "scripting/lua_json.h"

#include <fmt/format.h>

namespace mnemo::console {
namespace {

const char kAdminKey = 0;  // its address keys the Admin in the registry

}  // namespace

Admin& Admin::of(lua_State* L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kAdminKey);
    auto* admin = static_cast<Admin*>(lua_touserdata(L, -1));
    lua_pop(L, 1);
    return *admin;
}

void Admin::bind(lua_State* L) {
    lua_pushlightuserdata(L, this);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kAdminKey);
}

void Admin::storage(Operation op) {
    on_loop([op = std::move(op)](AdminHost& host, LoopCall::Done done) {
        host.executor().run([env = host.storage_env(), op] { return op(env); }, std::move(done));
    });
}

void Admin::storage_with_memories(MemoryOperation op) {
    on_loop([op = std::move(op)](AdminHost& host, LoopCall::Done done) {
        host.executor().run_on_worker(
            [env = host.storage_env(), links = host.memory_links(), op] { return op(env, links); }, std::move(done));
    });
}

void Admin::transfer(const Transfer& job) {
    std::optional<core::Env> env;
    outcome = calls_.call([&](LoopCall::Done done) {
        env.emplace(host_.storage_env());
        done(core::Outcome::ok({}));
    });
    if (!env) return;  // the daemon is stopping: outcome says so
    outcome = job(*env, env->backend.nonblocking() ? loop_storage_call(env->backend) : core::StorageCall{});
}

core::StorageCall Admin::loop_storage_call(const storage::Backend& backend) {
    return [this, &backend](const core::StorageOp& op) -> std::optional<storage::StorageError> {
        std::optional<storage::StorageError> failure;
        bool ran = false;
        core::Outcome answer = calls_.call([&](LoopCall::Done done) {
            failure = backend.call(op);
            ran = true;
            done(core::Outcome::ok({}));
        });
        if (ran) return failure;
        std::string why = answer.error ? answer.error->message : "the daemon is stopping";
        return storage::StorageError{MNEMO_E_UNAVAILABLE, why, -1};
    };
}

void Admin::on_loop(LoopTask task) {
    outcome = calls_.call([this, task = std::move(task)](LoopCall::Done done) { task(host_, std::move(done)); });
}

int Admin::push_outcome(lua_State* L) {
    if (outcome.error) {
        error_ = fmt::format("{}: {}", core::code_name(outcome.error->code), outcome.error->message);
        return raise(L);
    }
    if (outcome.body.empty()) {
        lua_pushboolean(L, 1);
    } else {
        scripting::push_json(L, outcome.body);
    }
    return 1;
}

int Admin::push_outcome_field(lua_State* L, const char* name) {
    push_outcome(L);
    lua_getfield(L, -1, name);
    return 1;
}

int Admin::raise(lua_State* L) {
    luaL_where(L, 1);
    lua_pushlstring(L, error_.data(), error_.size());
    lua_concat(L, 2);
    return lua_error(L);
}

const char* check_name(lua_State* L, int index, const char* what) {
    size_t length = 0;
    const char* name = luaL_checklstring(L, index, &length);
    if (core::valid_name(std::string_view(name, length))) return name;
    Admin& admin = Admin::of(L);
    admin.fail(fmt::format("invalid_argument: {} '{}' {}", what, name, core::name_problem(name)));
    admin.raise(L);
    return nullptr;
}

std::optional<int64_t> opt_integer(lua_State* L, int index, const char* field) {
    if (lua_isnoneornil(L, index)) return std::nullopt;
    luaL_checktype(L, index, LUA_TTABLE);
    lua_getfield(L, index, field);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return std::nullopt;
    }
    int is_integer = 0;
    lua_Integer value = lua_tointegerx(L, -1, &is_integer);
    if (!is_integer) luaL_error(L, "option '%s' must be an integer", field);
    lua_pop(L, 1);
    return value;
}

const char* opt_name(lua_State* L, int index, const char* field) {
    if (lua_isnoneornil(L, index)) return nullptr;
    luaL_checktype(L, index, LUA_TTABLE);
    lua_getfield(L, index, field);  // left on the stack: it keeps the string alive
    if (lua_isnil(L, -1)) return nullptr;
    if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "option '%s' must be a string", field);
    return check_name(L, lua_gettop(L), field);
}

bool opt_flag(lua_State* L, int index, const char* field) {
    if (lua_isnoneornil(L, index)) return false;
    luaL_checktype(L, index, LUA_TTABLE);
    lua_getfield(L, index, field);
    bool flag = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return flag;
}

int64_t opt_limit(lua_State* L, int index, int64_t fallback, int64_t maximum) {
    int64_t limit = opt_integer(L, index, "limit").value_or(fallback);
    if (limit <= 0) luaL_error(L, "invalid_argument: limit must be at least 1");
    return std::min(limit, maximum);
}

void register_table(lua_State* L, const char* name, const luaL_Reg* functions) {
    if (lua_getglobal(L, name) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    luaL_setfuncs(L, functions, 0);
    lua_setglobal(L, name);
}

}  // namespace mnemo::console
