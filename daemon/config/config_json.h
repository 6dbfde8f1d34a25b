// The effective Config as a JSON tree with the YAML's key names: what
// value_json() looks into and what plan_reload() compares.
#pragma once

#include "config/config.h"
#include "config/json_value.h"

namespace mnemo::config {

Json to_json(const Config& config);
// The reset section alone, as to_json has it: what GET /v1/apps/{app}/reset-policies answers.
Json reset_json(const ResetConfig& reset);
// The node at a dotted path ("a.b", "a.list[0]"); nullptr when absent.
// Keys may contain dots (app names), so the longest matching key wins.
const Json* find_path(const Json& root, std::string_view dotted_path);

}  // namespace mnemo::config
