// Internal to the loader: the Config being built plus what the section
// readers set aside for rules that span sections (auth vs listeners,
// storage options vs plugin, apps over the global limits), which run after
// the whole file has been read so key order in the file does not matter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/config.h"
#include "config/yaml_reader.h"

namespace mnemo::config {

struct Deferred {
    YAML::Node node;  // undefined when the key was absent
    Place place;
};

// Where the memory keys that rules across keys point at were written.
struct MemoryPlaces {
    std::optional<Place> section, embedder, kind, url, model, command, capture, extractor, extract_command;
};

struct LoadState {
    LoadState(Context& context, Config& target, std::string base)
        : ctx(context), config(target), base_dir(std::move(base)) {}

    Context& ctx;
    Config& config;
    std::string base_dir;              // absolute
    std::vector<Place> listen_places;  // parallel to config.server.listen
    std::optional<Place> auth_required_place;
    std::optional<Place> summarizer_place;
    std::optional<Place> command_place;
    MemoryPlaces memory_places;
    Deferred storage_options;
    Deferred reset_overrides;
    Deferred apps;
    std::string scripts_dir_as_written = "./scripts";
};

// `read`, also keeping where the key was written in config.key_positions (for the checks after loading).
FieldReader positioned(LoadState& state, FieldReader read);

// Field tables of the top-level sections (one file each).
std::vector<Field> top_level_fields(LoadState& state);
std::vector<Field> server_fields(LoadState& state);
std::vector<Field> auth_fields(LoadState& state);
std::vector<Field> storage_fields(LoadState& state);
std::vector<Field> limits_fields(Context& ctx, LimitsConfig& limits);
// The top-level limits: section, which also takes the daemon-wide keys (max_mcp_sessions).
std::vector<Field> global_limits_fields(Context& ctx, LimitsConfig& limits);
std::vector<Field> ttl_fields(Context& ctx, TtlConfig& ttl);
std::vector<Field> sweep_fields(Context& ctx, SweepConfig& sweep);
std::vector<Field> recovery_fields(Context& ctx, RecoveryConfig& recovery);
std::vector<Field> reset_fields(LoadState& state);
std::vector<Field> summary_fields(LoadState& state);
std::vector<Field> memory_fields(LoadState& state);
// The keys an app may override under apps.<app>.memory.
std::vector<Field> app_memory_fields(Context& ctx, MemoryConfig& memory, std::optional<Place>& capture_place);
std::vector<Field> scripts_fields(LoadState& state);
std::vector<Field> log_fields(Context& ctx, LogConfig& log);

// A trigger map (summary.trigger, memory.extract_trigger), replacing `target` whole.
FieldReader trigger_field(Context& ctx, SummaryTrigger& target);
// Token lists: non-empty strings.
FieldReader token_list_field(Context& ctx, std::vector<std::string>& target);

// Steps after the whole file has been read, in this order.
void read_reset_overrides(LoadState& state);
void read_storage_options(LoadState& state);
void read_apps(LoadState& state);
void resolve_paths(LoadState& state);
void check_cross_section_rules(LoadState& state);
// memory.embedder's kind needs its url/model/command; extract by command needs extract_command.
void check_memory_rules(LoadState& state);
// apps.<app>.memory.capture: extract needs extract_command when the extractor is a command.
// `capture_path` names the capture key the error is reported under.
void check_app_extractor(LoadState& state, const MemoryConfig& memory, const std::optional<Place>& capture_place,
                         const std::string& capture_path);

// Only the API's name characters: letters, digits and . _ : @ -.
bool has_only_name_chars(std::string_view name);

// `path` made absolute against `base_dir` ("" stays "").
std::string absolute_against(const std::string& base_dir, const std::string& path);

}  // namespace mnemo::config
