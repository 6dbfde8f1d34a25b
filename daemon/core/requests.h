/*
 * core/requests.h -- request bodies into operation inputs.
 *
 * Owns the body rules of docs/api.md: field types, required fields, batch size
 * and duplicate client ids, expected_version. Each decoder validates the
 * whole body before anything is stored; unknown fields are ignored so that
 * newer clients work with an older daemon.
 */
#pragma once

#include "config/config.h"
#include "core/service.h"

#include <optional>
#include <string>

namespace mnemo::core {

// An empty body counts as {} for create.
std::optional<Error> decode_create_session(std::string& body, CreateSessionInput& out);
std::optional<Error> decode_append(std::string& body, const config::LimitsConfig& limits, AppendInput& out);
std::optional<Error> decode_rewrite(std::string& body, const config::LimitsConfig& limits, RewriteInput& out);
std::optional<Error> decode_rewind(std::string& body, RewindInput& out);
// Session-scope patches split app:/user:/temp: prefixes; app and user scope
// endpoints take keys as written (out.scope says which).
std::optional<Error> decode_patch_state(std::string& body, PatchStateInput& out);
std::optional<Error> decode_post_summary(std::string& body, PostSummaryInput& out);
std::optional<Error> decode_track_append(std::string& body, TrackAppendInput& out);

}  // namespace mnemo::core
