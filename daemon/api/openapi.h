/*
 * api/openapi.h -- the OpenAPI description of the HTTP API.
 *
 * Owns docs/openapi.yaml as the daemon serves it: embedded in the binary at
 * build time, converted to JSON once, on first use.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::api {

// The YAML text as built in.
std::string_view openapi_yaml();
// The same document as JSON text; nullopt when the built-in YAML does not
// parse (a build from a broken docs/openapi.yaml; its unit test says where).
const std::optional<std::string>& openapi_json();

}  // namespace mnemo::api
