// help(): the admin API with one line each (CONSOLE.md's table).
#include "console/admin_api.h"

namespace mnemo::console {
namespace {

int help(lua_State* L) {
    const std::string& text = help_text();
    lua_pushlstring(L, text.data(), text.size());
    return 1;
}

}  // namespace

const std::string& help_text() {
    static const std::string text =
        "help()                                          this list\n"
        "stats()                                         uptime, version, plugin, connections, requests, counts, "
        "memories, summary queue, sweeps\n"
        "sessions.list{app=, user=, active_within=, limit=}  rows {app, user, id, events, updated_at, expires_at}\n"
        "sessions.get(app, user, id, {events = N})       the session with its last N events\n"
        "sessions.delete(app, user, id, {hard = bool})   true\n"
        "sessions.count{app=}                            number of live sessions\n"
        "lanes.list{app=, active_within=, limit=}        lane rows\n"
        "lanes.get(app, lane)                            the lane\n"
        "lanes.reset(app, lane)                          the lane, moved to a fresh session\n"
        "lanes.suspend(app, lane)                        the lane, suspended\n"
        "state.app(app), state.user(app, user)           state tables\n"
        "search(app, q, {limit=, user=, match=, order=}) grouped results as in the API\n"
        "sweep()                                         a full sweep now: {expired, purged, finalized, ms}\n"
        "summaries.queue()                               pending summary jobs\n"
        "memories.count{app=, user=}                     number of live memories\n"
        "memories.search(app, q, {user=, limit=, mode=, match=}) ranked memories as the recall route answers\n"
        "memories.queue()                                memories by embedding status, the embedder's work, "
        "last error, apps moving to another dimension, extraction jobs waiting\n"
        "memories.reembed{app=, dimensions=}             marks the app's memories for the configured model "
        "(dimensions: its new vector length); how many\n"
        "summaries.run(app, user, id)                    the new summary text\n"
        "config.get(path), config.reload()               a value; true or an error listing what was refused\n"
        "plugins()                                       {name, path, abi_version, capabilities}\n"
        "hooks()                                         loaded hooks by name, with the script file of each\n"
        "log.level(level)                                the previous level\n"
        "export(app, path)                               writes the app as JSON Lines; counts\n"
        "import(path)                                    reads such a file; counts\n"
        "Functions of scripts/admin/*.lua are globals too.\n";
    return text;
}

void install_help(lua_State* L) {
    lua_register(L, "help", help);
}

}  // namespace mnemo::console
