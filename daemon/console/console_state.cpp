#include "console/console_state.h"

#include "console/admin_api.h"
#include "core/json_writer.h"
#include "observability/log.h"
#include "scripting/lua_json.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mnemo::console {
namespace {

const char kStateKey = 0;  // its address keys the ConsoleState in the registry

// print(...): one print frame, arguments separated by tabs as Lua's print writes them.
int console_print(lua_State* L) {
    int n = lua_gettop(L);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    for (int i = 1; i <= n; ++i) {
        if (i > 1) luaL_addchar(&buffer, '\t');
        luaL_tolstring(L, i, nullptr);
        luaL_addvalue(&buffer);
    }
    luaL_pushresult(&buffer);
    size_t length = 0;
    const char* line = lua_tolstring(L, -1, &length);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kStateKey);
    static_cast<ConsoleState*>(lua_touserdata(L, -1))->print(std::string(line, length));
    return 0;
}

// Appends the JSON of the value at `index`; a value JSON cannot hold (a function) as its tostring text.
void append_result(lua_State* L, int index, std::string& out) {
    size_t mark = out.size();
    if (scripting::encode_json(L, index, out) == nullptr) return;
    out.resize(mark);
    size_t length = 0;
    const char* text = luaL_tolstring(L, index, &length);
    core::append_json_string(out, std::string_view(text, length));
    lua_pop(L, 1);
}

// Pushes the table whose fields the table on top shows: a read-only library's own table, else itself.
void push_members(lua_State* L) {
    if (lua_getmetatable(L, -1)) {
        if (lua_getfield(L, -1, "__index") == LUA_TTABLE) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, -1);
}

// Collects callable globals into `names`: functions, and functions one table deep.
void collect_names(lua_State* L, std::vector<std::string>& names) {
    lua_pushglobaltable(L);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char* name = lua_tostring(L, -2);
            if (lua_type(L, -1) == LUA_TFUNCTION) names.emplace_back(name);
            if (lua_type(L, -1) == LUA_TTABLE && std::string_view(name) != "_G") {
                push_members(L);
                lua_pushnil(L);
                while (lua_next(L, -2) != 0) {
                    if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION) {
                        names.push_back(std::string(name) + "." + lua_tostring(L, -2));
                    }
                    lua_pop(L, 1);
                }
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

scripting::Bounds console_bounds(const config::ScriptsConfig& scripts) {
    return scripting::Bounds{scripts.instruction_limit, scripts.memory_limit, 0};
}

std::vector<std::filesystem::path> admin_script_files(const std::string& scripts_dir) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(scripts_dir + "/admin", error)) {
        if (entry.is_regular_file(error) && entry.path().extension() == ".lua") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

ConsoleState::ConsoleState(std::shared_ptr<const config::Config> config, Admin& admin, Printer print,
                           const std::atomic<bool>& cancel)
    : lua_(console_bounds(config->scripts), config), print_(std::move(print)), cancel_(cancel) {
    lua_.set_cancel(&cancel_, "chunk stopped: the console connection closed");
    open_error_ = lua_.open_error();
    if (!open_error_) open_error_ = install(admin);
    if (!open_error_) load_admin_scripts(config->scripts.dir);
}

std::optional<std::string> ConsoleState::install(Admin& admin) {
    return lua_.protect([this, &admin](lua_State* L) {
        admin.bind(L);
        scripting::keep_key_order(L);  // rows print with docs/api.md's field order
        lua_pushlightuserdata(L, this);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &kStateKey);
        lua_register(L, "print", console_print);
        install_help(L);
        install_storage_api(L);
        install_lane_api(L);
        install_ops_api(L);
        install_data_api(L);
        install_memory_api(L);
        return 0;
    });
}

void ConsoleState::load_admin_scripts(const std::string& scripts_dir) {
    for (const auto& file : admin_script_files(scripts_dir)) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        source_ = text.str();
        std::string name = "@admin/" + file.filename().string();
        if (!in) {
            log::warn("console: cannot read the admin script {}; its functions are missing", file.string());
        } else if (auto error = run_source(name, false)) {
            log::warn("console: admin script {} failed to load, its functions are missing: {}", file.string(), *error);
        }
    }
}

std::optional<std::string> ConsoleState::run_source(const std::string& chunkname, bool keep_results) {
    results_.clear();
    return lua_.bounded([this, &chunkname, keep_results](lua_State* L) {
        if (luaL_loadbufferx(L, source_.data(), source_.size(), chunkname.c_str(), "t") != LUA_OK) return lua_error(L);
        lua_call(L, 0, keep_results ? LUA_MULTRET : 0);
        results_.push_back('[');
        for (int i = 1; i <= lua_gettop(L); ++i) {
            if (i > 1) results_.push_back(',');
            append_result(L, i, results_);
        }
        results_.push_back(']');
        return 0;
    });
}

ChunkAnswer ConsoleState::run(const std::string& payload) {
    if (open_error_) return ChunkAnswer{false, "the console's Lua state could not be set up: " + *open_error_};
    size_t newline = payload.find('\n');
    std::string chunkname = newline == std::string::npos ? "=console" : payload.substr(0, newline);
    source_ = newline == std::string::npos ? payload : payload.substr(newline + 1);
    if (auto error = run_source(chunkname, true)) return ChunkAnswer{false, std::move(*error)};
    return ChunkAnswer{true, results_};
}

std::string ConsoleState::names() {
    names_.clear();
    if (open_error_ || lua_.protect([this](lua_State* L) {
            collect_names(L, names_);
            return 0;
        })) {
        return {};
    }
    std::sort(names_.begin(), names_.end());
    std::string lines;
    for (const auto& name : names_) lines += name + "\n";
    return lines;
}

}  // namespace mnemo::console
