// The memory operations that write and read by id: write, get, list, patch, delete.
#include "memory/memory_service.h"

#include "core/json_writer.h"

#include "core/ids.h"
#include "core/pending_write.h"
#include "core/service_util.h"
#include "memory/memory_calls.h"
#include "memory/memory_render.h"

#include <algorithm>
#include <charconv>

namespace mnemo::memory {
namespace {

using core::Outcome;
using storage::absent;
using storage::opt_str;
using storage::str;

bool embedder_configured(const config::MemoryConfig& memory) {
    return memory.embedder.kind != config::EmbedderConfig::Kind::None;
}

int64_t ttl_us(const config::MemoryConfig& memory, const std::optional<int64_t>& ttl_seconds) {
    return ttl_seconds ? core::seconds_us(*ttl_seconds) : memory.ttl_us;
}

mnemo_vector vector_of(const std::optional<std::vector<float>>& values) {
    return values ? mnemo_vector{values->data(), values->size()} : mnemo_vector{nullptr, 0};
}

// The fields a write item and a patch share. `folded` and the optionals it
// points into must outlive the request.
struct InputFields {
    const std::optional<std::string>& name_space;
    const std::optional<std::string>& metadata_json;
    const std::optional<std::vector<float>>& embedding;
    const std::optional<std::string>& embedding_model;
};

void fill_common(mnemo_memory_input& out, const InputFields& in) {
    out.name_space = opt_str(in.name_space);
    out.metadata_json = opt_str(in.metadata_json);
    out.vector = vector_of(in.embedding);
    out.embedding_model = opt_str(in.embedding_model);
}

// A page token names the last row of a page: "updated_at~id".
std::string page_token_of(const storage::MemoryRow& row) {
    return fmt::format("{}~{}", row.updated_at_us, row.id);
}

bool read_page_token(std::string_view token, int64_t& updated_at_us, std::string& id) {
    size_t tilde = token.find('~');
    if (tilde == std::string_view::npos) return false;
    auto [end, ec] = std::from_chars(token.data(), token.data() + tilde, updated_at_us);
    id = std::string(token.substr(tilde + 1));
    return ec == std::errc() && end == token.data() + tilde && updated_at_us > 0 && core::valid_name(id);
}

void tell_if_pending(const MemoryEnv& env, bool any_pending) {
    if (any_pending && env.pending_written) env.pending_written();
}

core::Env core_env(const MemoryEnv& env) {
    return core::Env{env.backend, env.config, env.clock};
}

}  // namespace

MemoryEnv memory_env(const core::Env& env, const MemoryLinks* links) {
    if (links == nullptr)
        return MemoryEnv{env.backend, env.config, env.clock, nullptr, {}, {}, MemoryLinks{}.exact_scan_max};
    return MemoryEnv{env.backend,        env.config,           env.clock, links->index, links->pending_written,
                     links->embed_query, links->exact_scan_max};
}

std::optional<core::Error> memories_missing(const storage::Backend& backend) {
    if (backend.memories()) return std::nullopt;
    return no_memories(backend);
}

MemoryRequestLimits request_limits(const config::Config& config, const std::string& app) {
    MemoryRequestLimits limits;
    limits.max_batch = config.limits_for(app).max_batch_events;
    limits.max_text_bytes = config.memory_for(app).max_text_bytes;
    return limits;
}

std::string render_settled(std::vector<storage::MemoryWritten> written, const std::map<int64_t, int>& statuses) {
    for (storage::MemoryWritten& item : written) {
        auto found = statuses.find(item.memory.key);
        if (found != statuses.end()) item.memory.embedding = found->second;
    }
    return render_written(written);
}

std::shared_ptr<core::PendingWrite> begin_write_memories(
    const MemoryEnv& env, WriteMemoriesInput in, std::shared_ptr<std::vector<storage::MemoryWritten>> written_out) {
    struct Write {
        WriteMemoriesInput in;
        std::vector<std::string> ids, folded;
        std::vector<mnemo_memory_input> inputs;
        mnemo_memory_write_req req{};
    };
    auto write = std::make_shared<Write>();
    write->in = std::move(in);
    const config::MemoryConfig& memory = env.config->memory_for(write->in.app);
    int64_t now = env.clock.now_us();
    const auto& items = write->in.write.items;
    write->ids.resize(items.size());
    write->folded.resize(items.size());
    write->inputs.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const MemoryItemInput& item = items[i];
        write->ids[i] = item.id ? *item.id : core::uuid_v7(now);
        write->folded[i] = fold_memory_text(item.text);
        mnemo_memory_input& input = write->inputs[i];
        input.id = str(write->ids[i]);
        input.id_from_client = item.id ? 1 : 0;
        input.text = str(item.text);
        input.folded_text = str(write->folded[i]);
        fill_common(input, {item.name_space, item.metadata_json, item.embedding, item.embedding_model});
        input.session_id = opt_str(item.session_id);
        input.ttl_us = ttl_us(memory, item.ttl_seconds);
    }
    mnemo_memory_write_req& req = write->req;
    req.app = str(write->in.app);
    req.user = str(write->in.user);
    req.items = write->inputs.data();
    req.n_items = write->inputs.size();
    req.embedder = embedder_configured(memory) ? 1 : 0;
    req.dimensions = memory.dimensions;
    req.now_us = now;
    return std::make_shared<core::PendingWrite>(
        core_env(env), MNEMO_WRITE_OP(memory_write), write, &write->req,
        [env, n_items = items.size(), written_out](storage::Collected& result) {
            auto& written = result.written;
            if (written.size() != n_items) {
                return Outcome::fail(core::Error{
                    core::ErrorCode::Internal,
                    fmt::format("the storage plugin answered {} of {} memories written", written.size(), n_items),
                    "{}"});
            }
            std::sort(written.begin(), written.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
            tell_if_pending(env, std::any_of(written.begin(), written.end(), [](const storage::MemoryWritten& w) {
                                return w.memory.embedding == MNEMO_EMBEDDING_PENDING;
                            }));
            Outcome answer = Outcome::ok(render_written(written));
            if (written_out) *written_out = std::move(written);
            return answer;
        });
}

Outcome write_memories(const MemoryEnv& env, const WriteMemoriesInput& in) {
    if (auto missing = memories_missing(env.backend)) return Outcome::fail(std::move(*missing));
    return begin_write_memories(env, in)->run();
}

Outcome get_memory(const MemoryEnv& env, const MemoryRef& ref, bool include_embedding) {
    if (!env.backend.memories()) return Outcome::fail(no_memories(env.backend));
    mnemo_memory_get_req req{};
    req.ref = mnemo_memory_ref{str(ref.app), str(ref.user), str(ref.id), env.clock.now_us()};
    req.with_vector = include_embedding ? 1 : 0;
    storage::Collector collector;
    if (auto failed = call_memory_op(env, env.backend.ops().memory_get, req, collector)) return *failed;
    auto& rows = collector.result().memories;
    if (rows.empty()) {
        return Outcome::fail(
            core::not_found(fmt::format("memory {} of user {} not found in app {}", ref.id, ref.user, ref.app)));
    }
    return Outcome::ok(render_memory(rows.front(), include_embedding));
}

Outcome list_memories(const MemoryEnv& env, const ListMemoriesInput& in) {
    if (!env.backend.memories()) return Outcome::fail(no_memories(env.backend));
    mnemo_memory_list_req req{};
    req.app = str(in.app);
    req.user = str(in.user);
    req.name_space = opt_str(in.name_space);
    req.session_id = opt_str(in.session_id);
    req.limit = std::clamp<int64_t>(in.limit, 1, kMaxListLimit);
    req.now_us = env.clock.now_us();
    req.statuses = in.statuses;
    const MetadataViews metadata(in.metadata);
    req.metadata_keys = metadata.keys.data();
    req.metadata_values_json = metadata.values.data();
    req.n_metadata = metadata.keys.size();
    std::string cursor_id;
    req.cursor_id = absent();
    if (in.page_token) {
        if (!read_page_token(*in.page_token, req.cursor_updated_at_us, cursor_id)) {
            return Outcome::fail(
                core::invalid(fmt::format("page_token: '{}' is not a token this API returned", *in.page_token)));
        }
        req.cursor_id = str(cursor_id);
    }
    storage::Collector collector;
    if (auto failed = call_memory_op(env, env.backend.ops().memory_list, req, collector)) return *failed;
    const auto& result = collector.result();
    std::optional<std::string> next;
    if (result.has_more && !result.memories.empty()) next = page_token_of(result.memories.back());
    return Outcome::ok(render_page(result.memories, next));
}

std::shared_ptr<core::PendingWrite> begin_patch_memory(const MemoryEnv& env, MemoryRef ref, MemoryPatchInput patch) {
    struct Patch {
        MemoryRef ref;
        MemoryPatchInput patch;
        std::string folded;
        mnemo_memory_patch_req req{};
    };
    auto held = std::make_shared<Patch>();
    held->ref = std::move(ref);
    held->patch = std::move(patch);
    const MemoryPatchInput& in = held->patch;
    const config::MemoryConfig& memory = env.config->memory_for(held->ref.app);
    if (in.text) held->folded = fold_memory_text(*in.text);
    mnemo_memory_patch_req& req = held->req;
    req.ref = mnemo_memory_ref{str(held->ref.app), str(held->ref.user), str(held->ref.id), env.clock.now_us()};
    req.fields.id = absent();
    req.fields.text = opt_str(in.text);
    req.fields.folded_text = in.text ? str(held->folded) : absent();
    fill_common(req.fields, {in.name_space, in.metadata_json, in.embedding, in.embedding_model});
    req.fields.session_id = absent();
    req.fields.ttl_us = ttl_us(memory, in.ttl_seconds);
    req.embedder = embedder_configured(memory) ? 1 : 0;
    req.dimensions = memory.dimensions;
    return std::make_shared<core::PendingWrite>(
        core_env(env), MNEMO_WRITE_OP(memory_patch), held, &held->req, [env](storage::Collected& result) {
            auto& rows = result.memories;
            if (rows.empty()) {
                return Outcome::fail(
                    core::Error{core::ErrorCode::Internal, "the storage plugin answered no patched memory", "{}"});
            }
            tell_if_pending(env, rows.front().embedding == MNEMO_EMBEDDING_PENDING);
            return Outcome::ok(render_memory(rows.front(), false));
        });
}

std::shared_ptr<core::PendingWrite> begin_delete_memory(const MemoryEnv& env, MemoryRef ref) {
    struct Delete {
        MemoryRef ref;
        mnemo_memory_delete_req req{};
    };
    auto del = std::make_shared<Delete>();
    del->ref = std::move(ref);
    del->req.ref = mnemo_memory_ref{str(del->ref.app), str(del->ref.user), str(del->ref.id), env.clock.now_us()};
    return std::make_shared<core::PendingWrite>(
        core_env(env), MNEMO_WRITE_OP(memory_delete), del, &del->req,
        [](storage::Collected&) { return Outcome::ok({}, core::Success::NoContent); });
}

Outcome count_memories(const MemoryEnv& env, const std::optional<std::string>& app,
                       const std::optional<std::string>& user) {
    if (!env.backend.memories()) return Outcome::fail(no_memories(env.backend));
    mnemo_memory_count_req req{opt_str(app), opt_str(user), env.clock.now_us()};
    storage::Collector collector;
    if (auto failed = call_memory_op(env, env.backend.ops().memory_count, req, collector)) return *failed;
    const mnemo_memory_count_result& counts = collector.result().memory_count;
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().field("total", counts.total).field("none", counts.none).field("pending", counts.pending);
    w.field("ready", counts.ready).field("failed", counts.failed).field("stale", counts.stale);
    if (app) w.field("dimension", counts.dimension);
    w.end_object();
    return Outcome::ok(std::move(body));
}

}  // namespace mnemo::memory
