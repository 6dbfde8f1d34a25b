#include "errors.h"

#include "scope.h"

#include <cstdarg>
#include <cstdio>

namespace mnemo::memory {

int fail(mnemo_error* err, int code, const char* format, ...) {
    if (!err) return code;
    err->code = code;
    err->current_version = -1;
    va_list args;
    va_start(args, format);
    std::vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
    return code;
}

int session_not_found(mnemo_error* err, const mnemo_key& key) {
    return fail(err, MNEMO_E_NOT_FOUND, "session %.*s/%.*s not found in app %.*s", MNEMO_STR_ARG(key.user),
                MNEMO_STR_ARG(key.session_id), MNEMO_STR_ARG(key.app));
}

int session_exists(mnemo_error* err, const mnemo_key& key) {
    return fail(err, MNEMO_E_EXISTS, "session %.*s/%.*s already exists in app %.*s; choose another id",
                MNEMO_STR_ARG(key.user), MNEMO_STR_ARG(key.session_id), MNEMO_STR_ARG(key.app));
}

int check_version(mnemo_error* err, const mnemo_key& key, int has_expected, int64_t expected, int64_t current) {
    if (!has_expected || expected == current) return MNEMO_OK;
    fail(err, MNEMO_E_CONFLICT,
         "expected_version %lld does not match current version %lld of session %.*s/%.*s; "
         "re-read the session and retry",
         static_cast<long long>(expected), static_cast<long long>(current), MNEMO_STR_ARG(key.user),
         MNEMO_STR_ARG(key.session_id));
    if (err) err->current_version = current;
    return MNEMO_E_CONFLICT;
}

int lane_not_found(mnemo_error* err, mnemo_str app, mnemo_str lane) {
    return fail(err, MNEMO_E_NOT_FOUND, "lane %.*s not found in app %.*s", MNEMO_STR_ARG(lane), MNEMO_STR_ARG(app));
}

int check_lane_version(mnemo_error* err, const mnemo_lane& lane, int64_t expected, int64_t current) {
    if (expected == current) return MNEMO_OK;
    if (expected == 0)
        fail(err, MNEMO_E_CONFLICT, "lane %.*s already exists in app %.*s at version %lld; re-read it and retry",
             MNEMO_STR_ARG(lane.lane), MNEMO_STR_ARG(lane.app), static_cast<long long>(current));
    else
        fail(err, MNEMO_E_CONFLICT,
             "lane %.*s of app %.*s is at version %lld, not the expected %lld; re-read it and retry",
             MNEMO_STR_ARG(lane.lane), MNEMO_STR_ARG(lane.app), static_cast<long long>(current),
             static_cast<long long>(expected));
    if (err) err->current_version = current;
    return MNEMO_E_CONFLICT;
}

int state_too_large(mnemo_error* err, const mnemo_key& key, int scope, int64_t bytes, int64_t max_bytes) {
    return fail(err, MNEMO_E_TOO_LARGE,
                "%s state of session %.*s/%.*s in app %.*s would be %lld bytes, over max_state_bytes %lld; "
                "delete keys or raise limits.max_state_bytes",
                scope_name(scope), MNEMO_STR_ARG(key.user), MNEMO_STR_ARG(key.session_id), MNEMO_STR_ARG(key.app),
                static_cast<long long>(bytes), static_cast<long long>(max_bytes));
}

}  // namespace mnemo::memory
