// lane_rows.h -- the lanes table: reading a lane's version, storing a whole
// row (the ABI's mnemo_lane, version and created_at chosen here) and emitting
// rows selected with kLaneColumns.
#pragma once

#include "db.h"
#include "rules.h"
#include "store_error.h"
#include "output.h"

#include <optional>

namespace mnemo::sqlcore {

struct LaneVersion {
    int64_t version = 0;
    int64_t created_at_us = 0;
};

std::optional<LaneVersion> find_lane_version(Db& db, mnemo_str app, mnemo_str lane);
// Inserts the row (version 1) or updates it with the given version and
// created_at.
void store_lane(Db& db, const mnemo_lane& lane, const LaneVersion& stored);
// Emits the current row of a query selecting kLaneColumns.
void emit_lane_row(const Query& row, Output& out);
// Emits the stored lane of (app, lane); false when absent.
bool emit_lane(Db& db, mnemo_str app, mnemo_str lane, Output& out);

}  // namespace mnemo::sqlcore
