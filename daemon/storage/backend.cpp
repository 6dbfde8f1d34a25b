#include "storage/backend.h"

#include <fmt/format.h>

namespace mnemo::storage {

std::unique_ptr<Backend> Backend::open(std::unique_ptr<LoadedPlugin> plugin, const mnemo_host& host,
                                       const std::string& options_json, std::string* error) {
    mnemo_backend* handle = nullptr;
    mnemo_error err{};
    int rc = plugin->descriptor->ops->open(&host, options_json.c_str(), &handle, &err);
    if (rc != MNEMO_OK || handle == nullptr) {
        *error = fmt::format("storage plugin {} ({}) failed to open: {}", plugin->descriptor->name, plugin->path,
                             err.message[0] ? err.message : "no reason given");
        return nullptr;
    }
    return std::unique_ptr<Backend>(new Backend(std::move(plugin), handle));
}

Backend::~Backend() {
    if (handle_ != nullptr) ops().close(handle_);
}

}  // namespace mnemo::storage
