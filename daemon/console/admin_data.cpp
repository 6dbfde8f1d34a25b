// search, export, import: the app-wide data operations, called from a console chunk.
#include "console/admin_api.h"
#include "console/admin_call.h"

#include "core/export_import.h"
#include "core/json_writer.h"
#include "core/search.h"

#include <algorithm>

namespace mnemo::console {
namespace {

// search(app, q, {limit=, user=, channel=, role=, exclude_session=, context=, match=, order=}) as GET
// /v1/apps/{app}/search.
int search(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* q = luaL_optstring(L, 2, "");
    int64_t limit = opt_limit(L, 3, 10, core::kSearchMaxLimit);
    const char* user = opt_name(L, 3, "user");
    const char* channel = opt_name(L, 3, "channel");
    const char* exclude = opt_name(L, 3, "exclude_session");
    const char* role = opt_name(L, 3, "role");
    int64_t context = opt_integer(L, 3, "context").value_or(1);
    if (context < 0) return luaL_error(L, "invalid_argument: context must not be negative");
    const char* match = opt_name(L, 3, "match");
    if (match != nullptr && std::string_view(match) != "any" && std::string_view(match) != "all")
        return luaL_error(L, "invalid_argument: match '%s' is not any or all", match);
    const char* order = opt_name(L, 3, "order");
    if (order != nullptr && std::string_view(order) != "relevance" && std::string_view(order) != "time")
        return luaL_error(L, "invalid_argument: order '%s' is not relevance or time", order);
    Admin& admin = Admin::of(L);
    {
        core::SearchInput in;
        in.app = app;
        in.q = q;
        in.limit = limit;
        in.context = std::min(context, core::kSearchMaxContext);
        if (user != nullptr) in.user = user;
        if (channel != nullptr) in.channel = channel;
        if (exclude != nullptr) in.exclude_session = exclude;
        if (role != nullptr) in.role = role;
        if (match != nullptr && std::string_view(match) == "all") in.match = core::search_words::MatchMode::All;
        in.order_by_time = order != nullptr && std::string_view(order) == "time";
        admin.storage([in = std::move(in)](const core::Env& env) {
            if (auto error = core::check_search_query(in.q)) return core::Outcome::fail(std::move(*error));
            return core::search(env, in);
        });
    }
    return admin.push_outcome(L);
}

core::Outcome counts_outcome(core::TransferResult&& result) {
    if (result.error) return core::Outcome::fail(std::move(*result.error));
    const core::TransferCounts& counts = result.counts;
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().field("sessions", counts.sessions).field("events", counts.events);
    w.field("state", counts.state).field("summaries", counts.summaries);
    w.field("tracks", counts.tracks).field("lanes", counts.lanes).field("memories", counts.memories).end_object();
    return core::Outcome::ok(std::move(body));
}

// Whole files: they run on the chunk thread, page by page (see Admin::transfer).
int export_app(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* path = luaL_checkstring(L, 2);
    Admin& admin = Admin::of(L);
    admin.transfer([app, path](const core::Env& env, const core::StorageCall& call) {
        return counts_outcome(core::export_app(env, app, path, call));
    });
    return admin.push_outcome(L);
}

int import_file(lua_State* L) {
    const char* path = luaL_checkstring(L, 1);
    Admin& admin = Admin::of(L);
    admin.transfer([path](const core::Env& env, const core::StorageCall& call) {
        return counts_outcome(core::import_file(env, path, call));
    });
    return admin.push_outcome(L);
}

}  // namespace

void install_data_api(lua_State* L) {
    lua_register(L, "search", search);
    lua_register(L, "export", export_app);
    lua_register(L, "import", import_file);
}

}  // namespace mnemo::console
