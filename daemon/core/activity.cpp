// The apps and users a store holds (app_list, user_list): what an operator
// browses before picking a session (GET /v1/apps, GET /v1/apps/{app}/users).
#include "core/json_writer.h"
#include "core/ids.h"
#include "core/service_util.h"

#include <charconv>
#include <map>

#include <fmt/format.h>

namespace mnemo::core {

std::string time_name_token(int64_t time_us, std::string_view name) {
    return fmt::format("{}~{}", time_us, name);
}

bool decode_time_name_token(const std::string& token, int64_t& time_us, std::string& name) {
    auto tilde = token.find('~');
    if (tilde == std::string::npos) return false;
    auto [end, ec] = std::from_chars(token.data(), token.data() + tilde, time_us);
    name = token.substr(tilde + 1);
    return ec == std::errc() && end == token.data() + tilde && time_us > 0 && valid_name(name);
}

namespace {

Error no_activity_lists(const storage::Backend& backend) {
    return invalid(fmt::format(
        "the storage plugin '{}' cannot list its apps and users (app_list, user_list); rebuild it against this "
        "mnemod's mnemo_plugin.h, or use a shipped plugin (memory, sqlite, mysql, postgres)",
        backend.descriptor().name));
}

void write_counts(JsonWriter& w, const storage::ActivityRow& row) {
    w.field("sessions", row.sessions).field("events", row.events).field("memories", row.memories);
    w.key("last_active_at");
    if (row.last_active_at_us > 0) {
        w.raw_timestamp(row.last_active_at_us);
    } else {
        w.null();
    }
}

}  // namespace

Outcome list_apps(const Env& env) {
    if (!env.backend.activity_lists()) return Outcome::fail(no_activity_lists(env.backend));
    mnemo_app_list_req req{};
    req.now_us = env.clock.now_us();
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().app_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    std::map<std::string, storage::ActivityRow> apps;
    for (auto& row : collector.result().activity) apps[row.name] = std::move(row);
    for (const auto& [name, app] : env.config->apps) apps.try_emplace(name, storage::ActivityRow{name});
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("apps").begin_array();
    for (const auto& [name, row] : apps) {
        w.begin_object().field("app", name).field("configured", env.config->apps.count(name) > 0);
        w.field("users", row.users);
        write_counts(w, row);
        w.end_object();
    }
    w.end_array().end_object();
    return Outcome::ok(std::move(body));
}

Outcome list_users(const Env& env, const ListUsersInput& in) {
    if (!env.backend.activity_lists()) return Outcome::fail(no_activity_lists(env.backend));
    mnemo_user_list_req req{};
    req.app = storage::str(in.app);
    req.now_us = env.clock.now_us();
    req.limit = in.limit + 1;  // one more tells whether a next page exists
    std::string cursor_user;
    req.cursor_user = storage::absent();
    if (in.page_token) {
        if (!decode_time_name_token(*in.page_token, req.cursor_active_at_us, cursor_user))
            return Outcome::fail(invalid(fmt::format("page_token '{}' is not a token this API returned", *in.page_token)));
        req.cursor_user = storage::str(cursor_user);
    }
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().user_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    return Outcome::ok(page_json(
        "users", collector.result().activity, in.limit,
        [](JsonWriter& w, const storage::ActivityRow& row) {
            w.begin_object().field("user", row.name);
            write_counts(w, row);
            w.end_object();
        },
        [](const storage::ActivityRow& last) { return time_name_token(last.last_active_at_us, last.name); }));
}

}  // namespace mnemo::core
