/*
 * storage/backend.h -- an opened storage plugin, as the core sees it.
 *
 * Owns the lifetime of one backend instance (open/close) and turns the C
 * status convention into a StorageError value. The core calls the plugin's
 * operation table through call(); whether a call runs inline on the loop or
 * on a worker is decided above, from nonblocking().
 */
#pragma once

#include "storage/abi/mnemo_plugin.h"
#include "storage/plugin_loader.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace mnemo::storage {

struct StorageError {
    int code = MNEMO_E_INTERNAL;
    std::string message;
    int64_t current_version = -1;
};

class Backend {
public:
    // Opens the plugin with the host's services and its options; null with *error set on failure.
    static std::unique_ptr<Backend> open(std::unique_ptr<LoadedPlugin> plugin, const mnemo_host& host,
                                         const std::string& options_json, std::string* error);
    ~Backend();
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    const mnemo_storage_ops& ops() const { return *plugin_->descriptor->ops; }
    mnemo_backend* handle() const { return handle_; }
    const mnemo_plugin& descriptor() const { return *plugin_->descriptor; }
    const std::string& path() const { return plugin_->path; }
    bool nonblocking() const { return (descriptor().capabilities & MNEMO_CAP_NONBLOCKING) != 0; }
    // The plugin queues appends itself (events_append_async, optional).
    bool async_append() const {
        const auto& table = ops();
        return !nonblocking() &&
               table.ops_size >= offsetof(mnemo_storage_ops, events_append_async) + sizeof table.events_append_async &&
               table.events_append_async != nullptr;
    }

    // The plugin queues its other writes too (write_async, optional).
    bool async_writes() const {
        const auto& table = ops();
        return !nonblocking() &&
               table.ops_size >= offsetof(mnemo_storage_ops, write_async) + sizeof table.write_async &&
               table.write_async != nullptr;
    }

    // The plugin keeps long-term memories: the thirteen memory ops are all
    // there (the ABI allows all or none, so the first and the size suffice).
    bool memories() const {
        const auto& table = ops();
        return table.ops_size >= offsetof(mnemo_storage_ops, memory_count) + sizeof table.memory_count &&
               table.memory_write != nullptr;
    }

    // The plugin keeps the extraction cursor (session_extracted, ABI 5, optional).
    bool extraction_cursor() const {
        const auto& table = ops();
        return table.ops_size >= offsetof(mnemo_storage_ops, session_extracted) + sizeof table.session_extracted &&
               table.session_extracted != nullptr;
    }

    // The plugin lists the apps and users it holds (app_list and user_list, ABI 7, optional).
    bool activity_lists() const {
        const auto& table = ops();
        return table.ops_size >= offsetof(mnemo_storage_ops, user_list) + sizeof table.user_list &&
               table.app_list != nullptr && table.user_list != nullptr;
    }

    // The plugin lists a session's tracks (session_tracks, ABI 8, optional).
    bool track_names() const {
        const auto& table = ops();
        return table.ops_size >= offsetof(mnemo_storage_ops, session_tracks) + sizeof table.session_tracks &&
               table.session_tracks != nullptr;
    }

    // Runs one operation: fn(mnemo_error*) -> int. Returns the error, or nullopt.
    template <typename Fn>
    std::optional<StorageError> call(Fn&& fn) const {
        mnemo_error err{};
        err.current_version = -1;
        int rc = fn(&err);
        if (rc == MNEMO_OK) return std::nullopt;
        return error_of(rc, err);
    }
    // What a call that returned rc (not MNEMO_OK) with err filled failed with.
    static StorageError error_of(int rc, const mnemo_error& err) {
        StorageError out;
        out.code = err.code != 0 ? err.code : rc;
        out.message = err.message[0] ? std::string(err.message) : std::string("storage error");
        out.current_version = err.current_version;
        return out;
    }

private:
    Backend(std::unique_ptr<LoadedPlugin> plugin, mnemo_backend* handle)
        : plugin_(std::move(plugin)), handle_(handle) {}
    std::unique_ptr<LoadedPlugin> plugin_;
    mnemo_backend* handle_;
};

}  // namespace mnemo::storage
