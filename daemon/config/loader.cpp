// Entry points: read a file (or text, or nothing), parse the YAML, run the
// section readers and the cross-section steps, and hand out the Config only
// when no error was found.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "config/defaults.h"
#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr const char* kLocalConfig = "mnemod.yaml";
constexpr const char* kSystemConfig = "/etc/mnemod/mnemod.yaml";

std::string absolute_dir(const std::string& dir) {
    std::error_code ignored;
    auto absolute = std::filesystem::absolute(dir.empty() ? "." : dir, ignored);
    return absolute.lexically_normal().string();
}

// Reads the whole file; on failure returns the errno.
int read_whole_file(const std::string& path, std::string& out) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    char buffer[16384];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(got));
    int error = got < 0 ? errno : 0;
    ::close(fd);
    return error;
}

std::optional<YAML::Node> parse_yaml(const std::string& text, Diagnostics& diagnostics) {
    try {
        return YAML::Load(text);
    } catch (const YAML::Exception& e) {
        diagnostics.add(Place{"", e.mark}, "YAML syntax error: " + e.msg);
        return std::nullopt;
    }
}

void read_document(LoadState& state, const YAML::Node& root) {
    read_map(state.ctx, root, place_of(root, "", YAML::Mark()), top_level_fields(state));
    read_reset_overrides(state);
    read_storage_options(state);
    read_apps(state);
    resolve_paths(state);
    check_cross_section_rules(state);
}

LoadResult load_text(const std::string& text, const std::string& display_name, const std::string& base_dir,
                     const std::string& source_path) {
    Diagnostics diagnostics(display_name);
    auto root = parse_yaml(text, diagnostics);
    if (!root) return {nullptr, diagnostics.sorted()};
    Config config = default_config();
    Context ctx{diagnostics, process_environment()};
    LoadState state{ctx, config, absolute_dir(base_dir)};
    read_document(state, *root);
    if (!diagnostics.empty()) return {nullptr, diagnostics.sorted()};
    config.source_path = source_path;
    config.display_name = display_name;
    config.base_dir = state.base_dir;
    return {std::make_shared<const Config>(std::move(config)), {}};
}

}  // namespace

FieldReader positioned(LoadState& state, FieldReader read) {
    return [&state, read = std::move(read)](const YAML::Node& value, const Place& place) {
        state.config.key_positions[place.path] = {place.mark.line, place.mark.column};
        read(value, place);
    };
}

LoadResult load_file(const std::string& path) {
    std::string text;
    if (int error = read_whole_file(path, text); error != 0) {
        return {nullptr, {"cannot read " + path + ": " + std::strerror(error)}};
    }
    std::string absolute = absolute_dir(path);
    std::string folder = std::filesystem::path(absolute).parent_path().string();
    return load_text(text, path, folder, absolute);
}

LoadResult load_string(const std::string& yaml_text, const std::string& display_name, const std::string& base_dir) {
    return load_text(yaml_text, display_name, base_dir, "");
}

LoadResult load_zero_config(const std::string& working_dir) {
    return load_text("", "(defaults)", working_dir, "");
}

std::optional<std::string> find_config_file() {
    std::error_code ignored;
    for (const char* candidate : {kLocalConfig, kSystemConfig}) {
        if (std::filesystem::is_regular_file(candidate, ignored)) return std::string(candidate);
    }
    return std::nullopt;
}

}  // namespace mnemo::config
