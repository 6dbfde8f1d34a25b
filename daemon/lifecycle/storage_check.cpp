#include "lifecycle/storage_check.h"

#include "core/plugin_host.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <string_view>

namespace mnemo::lifecycle {
namespace {

bool has_check(const mnemo_storage_ops& ops) {
    return ops.ops_size >= offsetof(mnemo_storage_ops, check) + sizeof ops.check && ops.check != nullptr;
}

// A fixed field of the plugin's answer, read no further than its size (the
// plugin is to terminate it, but a missing NUL must not run past it).
template <size_t N>
std::string_view text_of(const char (&field)[N]) {
    return std::string_view(field, strnlen(field, N));
}

}  // namespace

StorageCheck check_storage(const config::Config& config, const storage::LoadedPlugin& plugin) {
    const mnemo_plugin& descriptor = *plugin.descriptor;
    if (!has_check(*descriptor.ops)) return {};
    mnemo_check_result result{};
    mnemo_error err{};
    int rc = descriptor.ops->check(&core::plugin_host(), config.storage.options_json.c_str(), &result, &err);
    if (rc == MNEMO_OK) return {std::nullopt, MNEMO_OK, std::string(text_of(result.summary))};
    std::string_view option = text_of(result.option);
    std::string_view message = text_of(err.message);
    std::string key = option.empty() ? "storage.options" : fmt::format("storage.options.{}", option);
    return {config.key_error(key, fmt::format("storage plugin {}: {}", descriptor.name,
                                              message.empty() ? "its check failed, giving no reason" : message)),
            err.code != 0 ? err.code : rc, ""};
}

}  // namespace mnemo::lifecycle
