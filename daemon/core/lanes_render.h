/*
 * core/lanes_render.h -- the JSON of a Lane (internal to core/lanes*.cpp).
 */
#pragma once

#include "core/json_writer.h"
#include "storage/rows.h"

namespace mnemo::core {

// docs/api.md's Lane object, plus created_at and version. platform and chat_type are null when none.
void write_lane(JsonWriter& w, const storage::LaneRow& lane);
std::string lane_json(const storage::LaneRow& lane);

}  // namespace mnemo::core
