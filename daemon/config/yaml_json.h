// YAML as a Json tree: scalars typed as YAML 1.2's core schema types plain
// ones (quoted scalars stay strings). Used for plugin options and for the
// OpenAPI description the daemon serves as JSON.
#pragma once

#include "config/json_value.h"

#include <yaml-cpp/yaml.h>

#include <string>

namespace mnemo::config {

// A plain (unquoted) scalar: true/false, null/~, a JSON number, else the text.
Json plain_scalar(const std::string& text);
// A whole node; a later duplicate key replaces an earlier one.
Json yaml_to_json(const YAML::Node& node);

}  // namespace mnemo::config
