#include "core/export_import.h"

#include "core/export_jsonl.h"
#include "storage/rows.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace mnemo::core {
namespace {

using storage::str;

void add_count(TransferCounts& counts, int kind) {
    switch (kind) {
        case MNEMO_RECORD_SESSION:
            ++counts.sessions;
            break;
        case MNEMO_RECORD_EVENT:
            ++counts.events;
            break;
        case MNEMO_RECORD_STATE:
            ++counts.state;
            break;
        case MNEMO_RECORD_SUMMARY:
            ++counts.summaries;
            break;
        case MNEMO_RECORD_TRACK:
            ++counts.tracks;
            break;
        case MNEMO_RECORD_LANE:
            ++counts.lanes;
            break;
        case MNEMO_RECORD_MEMORY:
            ++counts.memories;
            break;
        default:
            break;
    }
}

// A plugin built before export/import existed has a shorter table.
bool has_export(const mnemo_storage_ops& ops) {
    return ops.ops_size >= offsetof(mnemo_storage_ops, export_step) + sizeof ops.export_step &&
           ops.export_step != nullptr;
}
bool has_import(const mnemo_storage_ops& ops) {
    return ops.ops_size >= offsetof(mnemo_storage_ops, import_records) + sizeof ops.import_records &&
           ops.import_records != nullptr;
}
// The memory ops are all or none; such a backend exports and imports memory records too.
bool has_memories(const mnemo_storage_ops& ops) {
    return ops.ops_size >= offsetof(mnemo_storage_ops, memory_write) + sizeof ops.memory_write &&
           ops.memory_write != nullptr;
}

Error unsupported(const Env& env, const char* what) {
    return Error{ErrorCode::Unavailable,
                 fmt::format("the storage plugin {} does not support {}; use a plugin built for ABI {} with it",
                             env.backend.descriptor().name, what, MNEMO_PLUGIN_ABI_VERSION),
                 "{}"};
}

Error file_error(const std::string& path, std::string_view doing) {
    return invalid(fmt::format("cannot {} {}: {}", doing, path, std::strerror(errno)));
}

// ---- export ----

// Where export_step's records go: straight into the temporary file.
struct ExportFile {
    std::FILE* file = nullptr;
    TransferCounts counts;
    std::string last_user, last_id;  // the last session written: the next step's cursor
    int64_t last_key = 0;            // the last memory written: the next memory step's cursor
    bool memory_step = false;        // the step asked for memories only
    int64_t app_dimension = 0;       // the exported app's stored dimension; 0: none fixed
    bool other_kind = false;         // ...and got something else
    bool more = false;
    bool write_failed = false;
};

// A memory still holding its old model's vector while its app moves to
// another dimension (memories.reembed{dimensions=}) is written pending,
// without that vector: a file holds one length per app, so the import
// takes it, and its embedder embeds the memory with the new model.
std::string encode_for_export(const mnemo_record& record, int64_t app_dimension) {
    const mnemo_memory* memory = record.kind == MNEMO_RECORD_MEMORY ? record.memory : nullptr;
    if (memory == nullptr || app_dimension <= 0 || memory->vector.values == nullptr ||
        static_cast<int64_t>(memory->vector.dims) == app_dimension) {
        return encode_record(record);
    }
    mnemo_memory pending = *memory;
    pending.vector = mnemo_vector{nullptr, 0};
    pending.embedding = MNEMO_EMBEDDING_PENDING;
    pending.embedding_model = storage::absent();
    mnemo_record changed = record;
    changed.memory = &pending;
    return encode_record(changed);
}

void on_record(void* ctx, const mnemo_record* record) {
    auto& out = *static_cast<ExportFile*>(ctx);
    std::string line = encode_for_export(*record, out.app_dimension);
    line.push_back('\n');
    if (std::fwrite(line.data(), 1, line.size(), out.file) != line.size()) out.write_failed = true;
    add_count(out.counts, record->kind);
    if (out.memory_step && record->kind != MNEMO_RECORD_MEMORY) out.other_kind = true;
    if (record->kind == MNEMO_RECORD_MEMORY) out.last_key = record->memory->key;
    if (record->kind != MNEMO_RECORD_SESSION) return;
    out.last_user.assign(storage::view(record->session->user));
    out.last_id.assign(storage::view(record->session->id));
}

void on_more(void* ctx) {
    static_cast<ExportFile*>(ctx)->more = true;
}

std::optional<storage::StorageError> run(const Env& env, const StorageCall& call, const StorageOp& op) {
    return call ? call(op) : env.backend.call(op);
}

std::optional<Error> export_step(const Env& env, const mnemo_export_req& req, ExportFile& out, const std::string& path,
                                 const StorageCall& call) {
    const mnemo_record_sink sink{&out, on_record, on_more};
    out.more = false;
    auto failure = run(env, call, [&](mnemo_error* err) {
        return env.backend.ops().export_step(env.backend.handle(), &req, &sink, err);
    });
    if (failure) return from_storage(*failure);
    if (out.write_failed) return file_error(path, "write the export file");
    return std::nullopt;
}

// After the sessions: the app's memories, by key.
std::optional<Error> export_memory_pages(const Env& env, mnemo_export_req req, ExportFile& out, const std::string& path,
                                         const StorageCall& call) {
    req.memories = 1;
    req.limit = kExportMemoryPage;
    out.memory_step = true;
    const mnemo_memory_count_req count_req{req.app, storage::absent(), req.now_us};
    storage::Collector counted;
    if (auto failure = run(env, call, [&](mnemo_error* err) {
            return env.backend.ops().memory_count(env.backend.handle(), &count_req, counted.sink(), err);
        })) {
        return from_storage(*failure);
    }
    out.app_dimension = counted.result().memory_count.dimension;
    for (bool first = true; first || out.more; first = false) {
        req.cursor_key = out.last_key;
        if (auto error = export_step(env, req, out, path, call)) return error;
        // A plugin that keeps memories but predates their export answers with its sessions again, or never moves on.
        if (out.other_kind || (out.more && out.last_key == req.cursor_key))
            return unsupported(env,
                               "the export of its memories (a memory step of export_step answered other "
                               "records or did not move on)");
    }
    return std::nullopt;
}

std::optional<Error> export_pages(const Env& env, const std::string& app, ExportFile& out, const std::string& path,
                                  const StorageCall& call) {
    mnemo_export_req req{};
    req.app = str(app);
    req.now_us = env.clock.now_us();
    req.limit = kExportPage;
    req.cursor_user = req.cursor_id = storage::absent();
    std::string cursor_user, cursor_id;  // copies: the sink overwrites last_* while a step reads the cursor
    for (bool first = true; first || out.more; first = false) {
        if (!first) {
            cursor_user = out.last_user;
            cursor_id = out.last_id;
            req.cursor_user = str(cursor_user);
            req.cursor_id = str(cursor_id);
        }
        if (auto error = export_step(env, req, out, path, call)) return error;
    }
    return has_memories(env.backend.ops()) ? export_memory_pages(env, req, out, path, call) : std::nullopt;
}

// Flushed to disk before the rename, so a crash never leaves a short file under `path`.
std::optional<Error> finish_file(std::FILE* file, const std::string& temp, const std::string& path) {
    const bool written = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) return file_error(path, "write the export file");
    if (std::rename(temp.c_str(), path.c_str()) != 0) return file_error(path, "rename the finished export to");
    return std::nullopt;
}

// ---- import ----

struct NumberedRecord {
    size_t line = 0;
    JsonlRecord record;
};

// What the importing side accepts: its limits, and memory lines only where the backend keeps memories.
struct ImportRules {
    DecodeLimits limits;
    bool memories = false;
    const char* plugin = "";
};

ImportRules import_rules(const Env& env) {
    ImportRules rules;
    rules.limits.max_memory_text_bytes = env.config->memory.max_text_bytes;
    rules.memories = has_memories(env.backend.ops());
    rules.plugin = env.backend.descriptor().name;
    return rules;
}

std::optional<std::string> refused_kind(const JsonlRecord& record, const ImportRules& rules) {
    if (record.kind != MNEMO_RECORD_MEMORY || rules.memories) return std::nullopt;
    return fmt::format(
        "a memory record, but the storage plugin {} keeps no memories; import this file into a "
        "daemon whose plugin does (memory), or leave out the memory lines",
        rules.plugin);
}

// Calls on_record for every non-blank line, decoded; stops at the first bad one.
template <typename OnRecord>
std::optional<Error> read_lines(const std::string& path, const ImportRules& rules, OnRecord&& on_record) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return file_error(path, "open the import file");
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        NumberedRecord numbered{number, {}};
        std::optional<std::string> bad = decode_record(line, numbered.record, rules.limits);
        if (!bad) bad = refused_kind(numbered.record, rules);
        if (bad) return invalid(fmt::format("{} line {}: {}", path, number, *bad));
        if (auto error = on_record(std::move(numbered))) return error;
    }
    if (in.bad()) return file_error(path, "read the import file");
    return std::nullopt;
}

std::optional<Error> store_batch(const Env& env, const std::vector<NumberedRecord>& batch, const std::string& path,
                                 TransferCounts& counts, const StorageCall& call) {
    if (batch.empty()) return std::nullopt;
    std::vector<RecordParts> parts(batch.size());
    std::vector<mnemo_record> records;
    records.reserve(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) records.push_back(record_view(batch[i].record, parts[i]));
    const mnemo_import_req req{env.clock.now_us(), records.data(), records.size(), env.config->memory.dimensions};
    auto failure = run(
        env, call, [&](mnemo_error* err) { return env.backend.ops().import_records(env.backend.handle(), &req, err); });
    if (failure) {
        Error error = from_storage(*failure);
        error.message = fmt::format("{} lines {}-{}: {}", path, batch.front().line, batch.back().line, error.message);
        return error;
    }
    for (const NumberedRecord& numbered : batch) add_count(counts, numbered.record.kind);
    return std::nullopt;
}

}  // namespace

TransferResult export_app(const Env& env, const std::string& app, const std::string& path, const StorageCall& call) {
    TransferResult result;
    if (!has_export(env.backend.ops())) {
        result.error = unsupported(env, "export");
        return result;
    }
    std::string temp = path + ".partial-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    ExportFile out;
    out.file = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
    if (!out.file) {
        if (fd >= 0) ::close(fd);
        result.error = file_error(path, "create a file beside");
        return result;
    }
    result.error = export_pages(env, app, out, path, call);
    if (result.error) std::fclose(out.file);
    if (!result.error) result.error = finish_file(out.file, temp, path);
    if (result.error) std::remove(temp.c_str());
    result.counts = out.counts;
    return result;
}

TransferResult import_file(const Env& env, const std::string& path, const StorageCall& call) {
    TransferResult result;
    if (!has_import(env.backend.ops())) {
        result.error = unsupported(env, "import");
        return result;
    }
    const ImportRules rules = import_rules(env);
    // First pass: the whole file must be well-formed before anything is stored.
    result.error = read_lines(path, rules, [](NumberedRecord&&) { return std::optional<Error>(); });
    if (result.error) return result;
    std::vector<NumberedRecord> batch;
    batch.reserve(kImportBatch);
    result.error = read_lines(path, rules, [&](NumberedRecord&& numbered) -> std::optional<Error> {
        batch.push_back(std::move(numbered));
        if (batch.size() < kImportBatch) return std::nullopt;
        auto error = store_batch(env, batch, path, result.counts, call);
        batch.clear();
        return error;
    });
    if (!result.error) result.error = store_batch(env, batch, path, result.counts, call);
    return result;
}

}  // namespace mnemo::core
