// Session operations: create, get, list, delete, per-user purge.
#include "core/json_writer.h"
#include "core/pending_write.h"
#include "core/ids.h"
#include "core/render.h"
#include "core/service_util.h"

#include <charconv>
#include <optional>
#include <fmt/format.h>

namespace mnemo::core {

int64_t seconds_us(int64_t seconds) {
    constexpr int64_t kMaxSeconds = INT64_MAX / 1000000 - 1;
    return seconds > kMaxSeconds ? INT64_MAX - 1 : seconds * 1000000;
}

namespace {

// A page cursor. App-wide lists order sessions of every user, whose ids and
// updated_at may coincide, so their tokens carry the user too:
// "updated_at~user~id". Per-user lists, and tokens from before the user was
// added, are "updated_at~id" (user unknown). Names never hold '~'.
struct PageCursor {
    int64_t updated_at_us = 0;
    std::optional<std::string> user;
    std::string id;
};

std::string encode_page_token(const storage::SessionRow& row, bool with_user) {
    if (with_user) return fmt::format("{}~{}~{}", row.updated_at_us, row.user, row.id);
    return fmt::format("{}~{}", row.updated_at_us, row.id);
}

std::optional<PageCursor> decode_page_token(const std::string& token) {
    auto first = token.find('~');
    auto last = token.rfind('~');
    if (first == std::string::npos) return std::nullopt;
    PageCursor cursor;
    auto [end, ec] = std::from_chars(token.data(), token.data() + first, cursor.updated_at_us);
    if (ec != std::errc() || end != token.data() + first || cursor.updated_at_us <= 0) return std::nullopt;
    if (last != first) {
        cursor.user = token.substr(first + 1, last - first - 1);
        if (!valid_name(*cursor.user)) return std::nullopt;
    }
    cursor.id = token.substr(last + 1);
    if (!valid_name(cursor.id)) return std::nullopt;
    return cursor;
}

}  // namespace

std::shared_ptr<PendingWrite> begin_create_session(const Env& env, CreateSessionInput in) {
    struct Create {
        CreateSessionInput in;
        std::string id;
        std::vector<mnemo_state_op> ops;
        mnemo_session_create_req req{};
    };
    auto create = std::make_shared<Create>();
    create->in = std::move(in);
    const CreateSessionInput& input = create->in;
    int64_t now = env.clock.now_us();
    create->id = input.id ? *input.id : uuid_v7(now);
    const auto& ttl = env.config->ttl_for(input.app);
    create->ops = to_ops(input.state.changes);
    mnemo_session_create_req& req = create->req;
    req.key = mnemo_key{storage::str(input.app), storage::str(input.user), storage::str(create->id)};
    req.title = storage::str(input.title);
    req.parent_id = storage::opt_str(input.parent_id);
    req.metadata_json = storage::str(input.metadata_json);
    req.state_ops = create->ops.data();
    req.n_state_ops = create->ops.size();
    req.ttl_us = input.ttl_seconds ? seconds_us(*input.ttl_seconds) : ttl.session_us;
    req.now_us = now;
    req.app_state_ttl_us = ttl.app_state_us;
    req.user_state_ttl_us = ttl.user_state_us;
    req.max_state_bytes = static_cast<int64_t>(env.config->limits_for(input.app).max_state_bytes);
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(session_create), create, &create->req, [create](storage::Collected& result) {
            if (result.sessions.empty())
                return Outcome::fail(Error{ErrorCode::Internal, "storage returned no session", "{}"});
            std::string state = merged_state_json(result.state, temp_changes_of(create->in.state.changes));
            std::string body;
            JsonWriter w(body);
            write_session(w, result.sessions.front(), &state);
            return Outcome::ok(std::move(body), Success::Created);
        });
}

Outcome create_session(const Env& env, const CreateSessionInput& in) {
    return begin_create_session(env, in)->run();
}

Outcome get_session(const Env& env, const GetSessionInput& in) {
    mnemo_session_get_req req{};
    req.key = key_of(in.ref);
    req.now_us = env.clock.now_us();
    bool no_events = in.num_recent_events && *in.num_recent_events == 0;
    req.with_events = no_events ? 0 : 1;
    req.filter.num_recent = in.num_recent_events.value_or(0);
    req.filter.after_ts_us = in.after_ts_us;
    req.filter.from_checkpoint = in.from_checkpoint ? 1 : 0;
    req.filter.filter_key = in.filter_key ? storage::str(*in.filter_key) : storage::absent();
    req.filter.roles = storage::absent();
    storage::Collector collector;
    auto& result = collector.result();
    EventArrayRenderer events([&](JsonWriter& w) {
        if (result.sessions.empty()) return false;
        std::string state = merged_state_json(result.state);
        w.begin_object().key("session");
        write_session(w, result.sessions.front(), &state);
        w.key("events");
        return true;
    });
    events.attach(collector);
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().session_get(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    if (!events.finish())
        return Outcome::fail(
            not_found(fmt::format("session {}/{} not found in app {}", in.ref.user, in.ref.id, in.ref.app)));
    JsonWriter& w = events.writer();
    w.key("summary");
    if (in.from_checkpoint && !result.summaries.empty()) {
        write_summary(w, result.summaries.front());
    } else {
        w.null();
    }
    w.end_object();
    return Outcome::ok(events.take());
}

Outcome list_sessions(const Env& env, const ListSessionsInput& in) {
    mnemo_session_list_req req{};
    req.app = storage::str(in.app);
    req.user = in.user ? storage::str(*in.user) : storage::absent();
    req.now_us = env.clock.now_us();
    req.active_within_us = in.active_within_us;
    req.limit = in.limit + 1;  // one more tells whether a next page exists
    const bool app_wide = !in.user;
    std::optional<PageCursor> cursor;
    if (in.page_token) {
        cursor = decode_page_token(*in.page_token);
        if (!cursor) {
            return Outcome::fail(
                invalid(fmt::format("page_token '{}' is not a token this API returned", *in.page_token)));
        }
        req.cursor_updated_at_us = cursor->updated_at_us;
        req.cursor_id = storage::str(cursor->id);
    } else {
        req.cursor_id = storage::absent();
    }
    // A per-user list orders by (updated_at, id) alone: a user in its token is not part of its cursor.
    req.cursor_user = app_wide && cursor && cursor->user ? storage::str(*cursor->user) : storage::absent();
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().session_list(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    return Outcome::ok(page_json(
        "sessions", collector.result().sessions, in.limit,
        [](JsonWriter& w, const storage::SessionRow& row) { write_session(w, row, nullptr); },
        [app_wide](const storage::SessionRow& last) { return encode_page_token(last, app_wide); }));
}

namespace {

// A purge (hard delete, user purge) on a non-persistent backend leaves no
// finalize mark in storage: the purged rows it handed back are finalized from
// the inbox instead. A persistent backend keeps a mark and hands back none.
void finalize_purged(const Env& env, std::vector<storage::SessionRow>& purged) {
    if (env.finalize_inbox == nullptr) return;
    for (auto& row : purged) env.finalize_inbox->push({std::move(row), FinalizeReason::Deleted});
}

}  // namespace

std::shared_ptr<PendingWrite> begin_delete_session(const Env& env, SessionRef ref, bool hard) {
    struct Delete {
        SessionRef ref;
        mnemo_session_delete_req req{};
    };
    auto del = std::make_shared<Delete>();
    del->ref = std::move(ref);
    del->req.key = key_of(del->ref);
    del->req.now_us = env.clock.now_us();
    del->req.hard = (hard || !env.config->storage.soft_delete) ? 1 : 0;
    return std::make_shared<PendingWrite>(env, MNEMO_WRITE_OP(session_delete), del, &del->req,
                                          [env, hard = del->req.hard != 0](storage::Collected& result) {
                                              if (hard) finalize_purged(env, result.sessions);
                                              return Outcome::ok({}, Success::NoContent);
                                          });
}

Outcome delete_session(const Env& env, const SessionRef& ref, bool hard) {
    return begin_delete_session(env, ref, hard)->run();
}

std::shared_ptr<PendingWrite> begin_purge_user(const Env& env, std::string app, std::string user) {
    struct Purge {
        std::string app, user;
        mnemo_user_purge_req req{};
    };
    auto purge = std::make_shared<Purge>();
    purge->app = std::move(app);
    purge->user = std::move(user);
    purge->req = mnemo_user_purge_req{storage::str(purge->app), storage::str(purge->user), env.clock.now_us()};
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(user_purge), purge, &purge->req, [env](storage::Collected& result) {
            finalize_purged(env, result.sessions);
            std::string body;
            JsonWriter w(body);
            w.begin_object();
            const mnemo_purge_result& purged = result.purge;
            w.field("sessions", purged.sessions).field("events", purged.events).field("summaries", purged.summaries);
            w.field("tracks", purged.tracks).field("lanes", purged.lanes).field("state_keys", purged.state_keys);
            w.field("memories", purged.memories);
            w.end_object();
            return Outcome::ok(std::move(body));
        });
}

Outcome purge_user(const Env& env, const std::string& app, const std::string& user) {
    return begin_purge_user(env, app, user)->run();
}

}  // namespace mnemo::core
