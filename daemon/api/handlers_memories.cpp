// Memory routes (docs/memories.md): write, list, get, patch, delete, and recall for
// one user (GET .../memories/search) or the whole app (POST .../memories/search).
#include "api/handlers.h"
#include "core/ids.h"
#include "memory/embed_pipeline.h"
#include "core/json_input.h"
#include "core/json_writer.h"
#include "memory/memory_render.h"
#include "memory/memory_requests.h"
#include "memory/memory_service.h"

#include <fmt/format.h>

#include <chrono>
#include <map>

namespace mnemo::api::handlers {
namespace {

// The memory a route names; "search" is refused as an id (it is the recall route).
std::optional<core::Error> memory_ref(const Call& call, memory::MemoryRef& out) {
    out = memory::MemoryRef{call.params.get("app"), call.params.get("user"), call.params.get("memory")};
    return memory::check_memory_id(out.id, "memory id");
}

std::optional<core::Error> read_optional_name(const Query& q, std::string_view param, std::optional<std::string>& out) {
    out = q.get(param);
    if (out && !core::valid_name(*out))
        return core::invalid(fmt::format("{}: '{}' {}", param, *out, core::name_problem(*out)));
    return std::nullopt;
}

// status=pending,failed: the statuses a list keeps (names as answers give them).
std::optional<core::Error> read_statuses(const Query& q, uint32_t& out) {
    auto value = q.get("status");
    if (!value) return std::nullopt;
    std::string_view rest(*value);
    while (true) {
        std::string_view name = rest.substr(0, rest.find(','));
        int status = MNEMO_EMBEDDING_NONE;
        while (status <= MNEMO_EMBEDDING_FAILED && memory::embedding_status_name(status) != name) ++status;
        if (status > MNEMO_EMBEDDING_FAILED)
            return core::invalid(fmt::format("status: '{}' is not one of none, pending, ready, failed", name));
        out |= 1u << status;
        if (name.size() == rest.size()) return std::nullopt;
        rest.remove_prefix(name.size() + 1);
    }
}

// metadata.<key>=<value>: a value that reads as JSON (a number, true, false,
// null, a "quoted string") compares as that value, any other as a string.
std::optional<core::Error> read_metadata_filters(const Query& q, std::vector<memory::MetadataCondition>& out) {
    for (auto& [key, value] : q.with_prefix("metadata.")) {
        if (key.empty()) return core::invalid("metadata.: name a metadata key after the dot (metadata.topic=travel)");
        for (const auto& earlier : out) {
            if (earlier.key == key) return core::invalid(fmt::format("metadata.{}: given twice", key));
        }
        bool scalar = !value.empty() && value.front() != '{' && value.front() != '[' && !core::validate_json(value);
        std::string value_json;
        if (scalar) {
            value_json = value;
        } else {
            core::JsonWriter(value_json).string(value);
        }
        out.push_back(memory::MetadataCondition{key, std::move(value_json)});
    }
    return std::nullopt;
}

// Recall takes milliseconds of vector search: always off the loop thread.
void run_recall(Api& api, CallPtr call, memory::RecallInput in) {
    std::string app = call->params.get("app");
    api.run_on_worker(call, [env = api.memory_env(*call), app = std::move(app), in = std::move(in)] {
        return memory::recall(env, app, in);
    });
}

// wait=true: the write, then an answer only once every memory it left
// pending is ready or failed, or at the wait limit with the statuses as they
// are (docs/memories.md). The waiting holds no thread: the pipeline calls back.
void write_and_wait(Api& api, CallPtr call, memory::WriteMemoriesInput in, memory::EmbedPipeline& pipeline) {
    struct Waiting {
        std::vector<storage::MemoryWritten> written;
        std::map<int64_t, int> statuses;
    };
    auto waiting = std::make_shared<Waiting>();
    auto written = std::make_shared<std::vector<storage::MemoryWritten>>();
    std::string app = in.app;
    api.executor().run_write(
        memory::begin_write_memories(api.memory_env(*call), std::move(in), written),
        [&api, call, waiting, written, app = std::move(app), &pipeline](core::Outcome&& outcome) {
            waiting->written = std::move(*written);
            std::vector<int64_t> pending;
            for (const auto& item : waiting->written) {
                if (item.memory.embedding == MNEMO_EMBEDDING_PENDING) pending.push_back(item.memory.key);
            }
            if (outcome.error || pending.empty()) return api.finish(*call, std::move(outcome));
            auto deadline = std::chrono::steady_clock::now() + pipeline.wait_limit();
            api.executor().run_async(
                [&pipeline, waiting, app, pending, deadline](mnemo_done_fn done, void* done_ctx) {
                    pipeline.when_settled(app, pending, deadline, [waiting, done, done_ctx](memory::Settled settled) {
                        for (const auto& memory : settled.memories) waiting->statuses[memory.key] = memory.embedding;
                        done(done_ctx, MNEMO_OK);
                    });
                    return MNEMO_OK;
                },
                [waiting](int /*status*/) {
                    return core::Outcome::ok(memory::render_settled(std::move(waiting->written), waiting->statuses));
                },
                [&api, call](core::Outcome&& settled) { api.finish(*call, std::move(settled)); });
        });
}

}  // namespace

void write_memories(Api& api, CallPtr call) {
    memory::WriteMemoriesInput in;
    in.app = call->params.get("app");
    in.user = call->params.get("user");
    auto limits = memory::request_limits(*call->config, in.app);
    if (auto error = memory::decode_memory_write(call->request.body, limits, in.write))
        return api.fail(*call, std::move(*error));
    if (auto missing = memory::memories_missing(api.backend())) return api.fail(*call, std::move(*missing));
    const memory::MemoryLinks* links = api.memory_links();
    if (!in.write.wait || links == nullptr || links->pipeline == nullptr) {
        return api.run_write(call, memory::begin_write_memories(api.memory_env(*call), std::move(in)));
    }
    write_and_wait(api, std::move(call), std::move(in), *links->pipeline);
}

void list_memories(Api& api, CallPtr call) {
    memory::ListMemoriesInput in;
    in.app = call->params.get("app");
    in.user = call->params.get("user");
    const Query& q = call->query;
    std::optional<core::Error> error = q.limit(memory::kDefaultListLimit, memory::kMaxListLimit, in.limit);
    if (!error) error = read_optional_name(q, "session_id", in.session_id);
    if (!error) error = read_statuses(q, in.statuses);
    if (!error) error = read_metadata_filters(q, in.metadata);
    if (!error) {
        in.name_space = q.get("namespace");
        if (in.name_space) error = memory::check_namespace(*in.name_space, "namespace");
    }
    if (error) return api.fail(*call, std::move(*error));
    in.page_token = q.get("page_token");
    api.run(call, [env = api.memory_env(*call), in = std::move(in)] { return memory::list_memories(env, in); });
}

void get_memory(Api& api, CallPtr call) {
    memory::MemoryRef ref;
    bool include_embedding = false;
    std::optional<core::Error> error = memory_ref(*call, ref);
    if (!error) error = call->query.flag("include_embedding", include_embedding);
    if (error) return api.fail(*call, std::move(*error));
    api.run(call, [env = api.memory_env(*call), ref = std::move(ref), include_embedding] {
        return memory::get_memory(env, ref, include_embedding);
    });
}

void patch_memory(Api& api, CallPtr call) {
    memory::MemoryRef ref;
    memory::MemoryPatchInput patch;
    std::optional<core::Error> error = memory_ref(*call, ref);
    if (!error) {
        auto limits = memory::request_limits(*call->config, ref.app);
        error = memory::decode_memory_patch(call->request.body, limits, patch);
    }
    if (!error) error = memory::memories_missing(api.backend());
    if (error) return api.fail(*call, std::move(*error));
    api.run_write(call, memory::begin_patch_memory(api.memory_env(*call), std::move(ref), std::move(patch)));
}

void delete_memory(Api& api, CallPtr call) {
    memory::MemoryRef ref;
    std::optional<core::Error> error = memory_ref(*call, ref);
    if (!error) error = memory::memories_missing(api.backend());
    if (error) return api.fail(*call, std::move(*error));
    api.run_write(call, memory::begin_delete_memory(api.memory_env(*call), std::move(ref)));
}

void recall_user(Api& api, CallPtr call) {
    const Query& q = call->query;
    memory::RecallQueryParams params{q.get("q"), q.get("namespace"), q.get("mode"), q.get("limit"), q.get("match")};
    memory::RecallInput in;
    in.user = call->params.get("user");
    if (auto error = memory::decode_recall_params(params, in)) return api.fail(*call, std::move(*error));
    run_recall(api, std::move(call), std::move(in));
}

void recall_app(Api& api, CallPtr call) {
    memory::RecallInput in;
    if (auto error = memory::decode_recall(call->request.body, in)) return api.fail(*call, std::move(*error));
    run_recall(api, std::move(call), std::move(in));
}

}  // namespace mnemo::api::handlers
