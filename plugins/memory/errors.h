// errors.h -- filling mnemo_error with messages that name the ids involved.
#pragma once

#include "util.h"

namespace mnemo::memory {

// Fills *err (when given) and returns code.
int fail(mnemo_error* err, int code, const char* format, ...) __attribute__((format(printf, 3, 4)));

int session_not_found(mnemo_error* err, const mnemo_key& key);
int session_exists(mnemo_error* err, const mnemo_key& key);
// OK when no expected version is given or it matches; else CONFLICT with current_version.
int check_version(mnemo_error* err, const mnemo_key& key, int has_expected, int64_t expected, int64_t current);
int lane_not_found(mnemo_error* err, mnemo_str app, mnemo_str lane);
// OK when expected matches current (0: the lane must not exist); else CONFLICT with current_version.
int check_lane_version(mnemo_error* err, const mnemo_lane& lane, int64_t expected, int64_t current);
int state_too_large(mnemo_error* err, const mnemo_key& key, int scope, int64_t bytes, int64_t max_bytes);

// "%.*s" arguments for a mnemo_str.
#define MNEMO_STR_ARG(s) static_cast<int>((s).ptr ? (s).len : 0), ((s).ptr ? (s).ptr : "")

}  // namespace mnemo::memory
