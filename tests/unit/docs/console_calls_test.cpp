// docs/console.md and help() cover exactly the admin API the console installs.
#include <gtest/gtest.h>

#include <lua.hpp>
#include <regex>

#include "console/admin_api.h"
#include "doc_headings.h"

namespace mnemo::docs_testing {
namespace {

// Global functions and functions one table deep, as a console's Lua state has them
// once the admin API is installed (into an empty state: nothing else is counted).
std::set<std::string> installed_calls() {
    lua_State* L = luaL_newstate();
    console::install_help(L);
    console::install_storage_api(L);
    console::install_lane_api(L);
    console::install_ops_api(L);
    console::install_data_api(L);
    console::install_memory_api(L);
    std::set<std::string> names;
    lua_pushglobaltable(L);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        std::string name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        if (lua_type(L, -1) == LUA_TFUNCTION) names.insert(name);
        if (lua_type(L, -1) == LUA_TTABLE && name != "_G") {
            lua_pushnil(L);
            while (lua_next(L, -2) != 0) {
                if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION)
                    names.insert(name + "." + lua_tostring(L, -2));
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    lua_close(L);
    return names;
}

// The call names of items like "sessions.list{app=, user=}" or "state.user(app, user)".
std::set<std::string> call_names(const std::vector<std::string>& items) {
    static const std::regex call(R"(^([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?)\s*[({])");
    std::set<std::string> names;
    for (const std::string& item : items) {
        std::smatch match;
        if (std::regex_search(item, match, call)) names.insert(match[1]);
    }
    return names;
}

// help()'s left column: the calls before the first run of two spaces on each line.
std::set<std::string> help_calls() {
    std::vector<std::string> items;
    std::istringstream lines(console::help_text());
    for (std::string line; std::getline(lines, line);) {
        std::string left = line.substr(0, line.find("  "));
        for (size_t start = 0, comma;; start = comma + 3) {
            comma = left.find("), ", start);
            items.push_back(left.substr(start, comma == std::string::npos ? std::string::npos : comma + 1 - start));
            if (comma == std::string::npos) break;
        }
    }
    return call_names(items);
}

TEST(ConsoleReference, InstallsTheKnownCalls) {
    std::set<std::string> installed = installed_calls();
    for (const char* call : {"help", "sessions.list", "config.reload", "memories.reembed", "export"})
        EXPECT_TRUE(installed.contains(call)) << call << " not installed; installed:\n" << listed(installed);
}

TEST(ConsoleReference, DocsCoverExactlyTheInstalledCalls) {
    std::set<std::string> installed = installed_calls();
    std::set<std::string> documented = call_names(heading_items(read_doc("docs/console.md"), false));
    EXPECT_TRUE(minus(installed, documented).empty())
        << "admin calls with no \"### `call(...)`\" heading in docs/console.md:\n"
        << listed(minus(installed, documented));
    EXPECT_TRUE(minus(documented, installed).empty()) << "docs/console.md documents calls the console does not have:\n"
                                                      << listed(minus(documented, installed));
}

TEST(ConsoleReference, HelpCoversExactlyTheInstalledCalls) {
    std::set<std::string> installed = installed_calls();
    std::set<std::string> helped = help_calls();
    EXPECT_TRUE(minus(installed, helped).empty()) << "admin calls help() does not list:\n"
                                                  << listed(minus(installed, helped));
    EXPECT_TRUE(minus(helped, installed).empty()) << "help() lists calls the console does not have:\n"
                                                  << listed(minus(helped, installed));
}

}  // namespace
}  // namespace mnemo::docs_testing
