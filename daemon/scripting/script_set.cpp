#include "scripting/script_set.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mnemo::scripting {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path.string() + ": check that the file exists and is readable";
    std::ostringstream text;
    text << in.rdbuf();
    out = text.str();
    return std::nullopt;
}

std::vector<std::string> hook_file_names(const fs::path& hooks_dir) {
    std::vector<std::string> names;
    std::error_code ignored;
    if (!fs::is_directory(hooks_dir, ignored)) return names;
    for (const auto& entry : fs::directory_iterator(hooks_dir, ignored)) {
        if (entry.path().extension() == ".lua" && entry.is_regular_file(ignored)) {
            names.push_back(entry.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

std::optional<std::string> read_scripts(const std::string& dir, ScriptSet& out) {
    out.dir = dir;
    out.files.clear();
    fs::path root(dir);
    for (const auto& name : hook_file_names(root / "hooks")) {
        ScriptFile file{"hooks/" + name, {}};
        if (auto error = read_file(root / "hooks" / name, file.text)) return error;
        out.files.push_back(std::move(file));
    }
    std::error_code ignored;
    if (fs::is_regular_file(root / "summarize.lua", ignored)) {
        ScriptFile file{"summarize.lua", {}};
        if (auto error = read_file(root / "summarize.lua", file.text)) return error;
        out.files.push_back(std::move(file));
    }
    return std::nullopt;
}

std::optional<std::string> load_scripts(ScriptState& state, const ScriptSet& set) {
    for (const auto& file : set.files) {
        state.loading_script = file.name;
        std::string chunk_name = "@" + file.name;
        auto error = state.bounded([&file, &chunk_name](lua_State* L) {
            if (luaL_loadbufferx(L, file.text.data(), file.text.size(), chunk_name.c_str(), "t") != LUA_OK) {
                return lua_error(L);
            }
            lua_call(L, 0, 0);
            return 0;
        });
        state.loading_script.clear();
        if (error) {
            bool has_place = error->rfind(file.name + ":", 0) == 0;
            return set.dir + "/" + (has_place ? *error : file.name + ": " + *error);
        }
    }
    return std::nullopt;
}

}  // namespace mnemo::scripting
