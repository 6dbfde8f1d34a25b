/*
 * core/export_import.h -- moving an app's data between stores as a file.
 *
 * Owns the console's export(app, path) and import(path): an export walks one
 * app's live data through the backend's export_step, page by page, and
 * writes it as JSON Lines (core/export_jsonl.h) to a temporary file beside
 * `path` that is renamed over `path` once complete, so a reader never sees a
 * half-written export. With a backend that keeps memories, the export
 * lists the app's live memories (with their vectors) after the sessions, by
 * key, page by page. An import validates every line of the file first (a
 * malformed file imports nothing and the error names the file, the line and
 * the field), then hands the records to the backend's import_records in
 * batches of kImportBatch, each batch one transaction, keeping ids, seqs,
 * versions and timestamps; importing the same file again changes nothing.
 * Both block on storage and the file system: call them off the event loop.
 * With a non-blocking backend, whose calls belong to the loop thread, pass a
 * StorageCall that hands each call to the loop: a transfer then holds the
 * loop for one page or batch at a time, never for the whole file.
 */
#pragma once

#include "core/errors.h"
#include "core/service.h"

#include "storage/backend.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mnemo::core {

// How many records of each kind a transfer moved.
struct TransferCounts {
    int64_t sessions = 0, events = 0, state = 0, summaries = 0, tracks = 0, lanes = 0, memories = 0;
};

struct TransferResult {
    std::optional<Error> error;  // what went wrong, naming the file (and line); counts are then partial
    TransferCounts counts;
};

// Runs one storage operation, fn(mnemo_error*) -> int, where the backend wants it.
using StorageOp = std::function<int(mnemo_error*)>;
using StorageCall = std::function<std::optional<storage::StorageError>(const StorageOp& op)>;

// Sessions (memories) per export_step call, records per import_records call.
inline constexpr int64_t kExportPage = 100;
inline constexpr int64_t kExportMemoryPage = 500;
inline constexpr size_t kImportBatch = 500;

// Writes the live sessions (with their state, visible events, summaries and
// tracks), the app state, every user state, the lanes and the live memories
// (a backend with memory ops) of `app` to `path`.
// Fails with Unavailable when the backend has no export_step, InvalidArgument
// when `path` cannot be written.
// `call`: where each storage call runs; empty: on the calling thread.
TransferResult export_app(const Env& env, const std::string& app, const std::string& path,
                          const StorageCall& call = {});

// Reads a file written by export_app and stores every record in it.
// InvalidArgument for an unreadable or malformed file ("<path> line <n>:
// field \"seq\": expected an integer"), a memory line for a backend without
// memory ops, or records the backend refuses ("<path> lines <a>-<b>: ...";
// batches before them stay imported).
TransferResult import_file(const Env& env, const std::string& path, const StorageCall& call = {});

}  // namespace mnemo::core
