#include "api/openapi.h"

#include "config/yaml_json.h"

extern const char mnemo_openapi_yaml[];
extern const unsigned long mnemo_openapi_yaml_size;

namespace mnemo::api {

std::string_view openapi_yaml() {
    return {mnemo_openapi_yaml, mnemo_openapi_yaml_size};
}

const std::optional<std::string>& openapi_json() {
    static const std::optional<std::string> json = []() -> std::optional<std::string> {
        try {
            return config::yaml_to_json(YAML::Load(std::string(openapi_yaml()))).dump();
        } catch (const YAML::Exception&) {
            return std::nullopt;
        }
    }();
    return json;
}

}  // namespace mnemo::api
