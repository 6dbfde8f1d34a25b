#include "lanes.h"

namespace mnemo::memory {

namespace {

void unindex_lane(Store& store, AppRec& app, LaneRec& lane) {
    app.lane_index.erase({lane.updated_at_us, lane.lane});
    store.lanes_by_update.erase({lane.updated_at_us, &lane});
    auto owner = app.users.find(lane.user);
    if (owner != app.users.end()) owner->second.lanes.erase(lane.lane);
}

void index_lane(Store& store, AppRec& app, LaneRec& lane) {
    app.lane_index.emplace(lane.updated_at_us, lane.lane);
    store.lanes_by_update.emplace(lane.updated_at_us, &lane);
    ensure_user(app, lane.user).lanes.insert(lane.lane);
}

}  // namespace

LaneRec* find_lane(AppRec& app, std::string_view lane) {
    auto found = app.lanes.find(lane);
    return found == app.lanes.end() ? nullptr : &found->second;
}

LaneRec lane_from(const mnemo_lane& row) {
    LaneRec lane;
    lane.app = copy(row.app);
    lane.lane = copy(row.lane);
    lane.user = copy(row.user);
    lane.session_id = copy(row.session_id);
    lane.platform = copy(row.platform);
    lane.chat_type = copy(row.chat_type);
    lane.updated_at_us = row.updated_at_us;
    lane.suspended = row.suspended != 0;
    lane.resume_pending = row.resume_pending != 0;
    lane.resume_reason = copy_opt(row.resume_reason);
    lane.was_auto_reset = row.was_auto_reset != 0;
    lane.auto_reset_reason = copy_opt(row.auto_reset_reason);
    lane.reset_had_activity = row.reset_had_activity != 0;
    lane.is_fresh_reset = row.is_fresh_reset != 0;
    lane.restart_count = row.restart_count;
    return lane;
}

LaneRec& put_lane(Store& store, AppRec& app, LaneRec lane) {
    auto slot = app.lanes.find(lane.lane);
    if (slot == app.lanes.end()) {
        slot = app.lanes.emplace(lane.lane, std::move(lane)).first;
    } else {
        unindex_lane(store, app, slot->second);
        slot->second = std::move(lane);
    }
    index_lane(store, app, slot->second);
    return slot->second;
}

void remove_lane(Store& store, AppRec& app, std::string_view lane) {
    auto slot = app.lanes.find(lane);
    if (slot == app.lanes.end()) return;
    unindex_lane(store, app, slot->second);
    app.lanes.erase(slot);
}

}  // namespace mnemo::memory
