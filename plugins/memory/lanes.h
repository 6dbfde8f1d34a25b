// lanes.h -- the lanes of an app in the memory backend: storing a row with
// every index that orders it (the app's list order, the store's prune order,
// the owning user's lane names) kept exact, and removing it the same way.
#pragma once

#include "memory_store.h"

namespace mnemo::memory {

LaneRec* find_lane(AppRec& app, std::string_view lane);
// An owned copy of the ABI row, version and created_at left to the caller.
LaneRec lane_from(const mnemo_lane& row);
// Inserts or replaces the app's lane of that name; returns the stored row.
LaneRec& put_lane(Store& store, AppRec& app, LaneRec lane);
// Removes the lane and its index entries; an absent lane is a no-op.
void remove_lane(Store& store, AppRec& app, std::string_view lane);

}  // namespace mnemo::memory
