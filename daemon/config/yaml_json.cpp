#include "config/yaml_json.h"

namespace mnemo::config {

Json plain_scalar(const std::string& text) {
    if (text == "true" || text == "false") return Json(text == "true");
    if (text == "null" || text == "~") return Json();
    if (auto parsed = Json::parse(text); parsed && !parsed->as_object() && !parsed->as_array()) return *parsed;
    return Json(text);
}

Json yaml_to_json(const YAML::Node& node) {
    if (node.IsMap()) {
        Json json = Json::object();
        for (const auto& entry : node) json.set(entry.first.Scalar(), yaml_to_json(entry.second));
        return json;
    }
    if (node.IsSequence()) {
        Json::Array items;
        for (const auto& item : node) items.push_back(yaml_to_json(item));
        return Json(std::move(items));
    }
    if (!node.IsScalar()) return Json();
    return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar(node.Scalar());
}

}  // namespace mnemo::config
