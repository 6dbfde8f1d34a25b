#include "core/json_equal.h"

#include <simdjson.h>

#include <string>

namespace mnemo::core {
namespace {

namespace dom = simdjson::dom;

bool is_number(dom::element_type type) {
    return type == dom::element_type::INT64 || type == dom::element_type::UINT64 || type == dom::element_type::DOUBLE;
}

bool numbers_equal(dom::element a, dom::element b) {
    auto ta = a.type(), tb = b.type();
    if (ta == dom::element_type::INT64 && tb == dom::element_type::INT64) return int64_t(a) == int64_t(b);
    if (ta == dom::element_type::UINT64 && tb == dom::element_type::UINT64) return uint64_t(a) == uint64_t(b);
    if (ta == dom::element_type::INT64 && tb == dom::element_type::UINT64) return false;  // one is negative or small
    if (ta == dom::element_type::UINT64 && tb == dom::element_type::INT64) return false;
    return double(a) == double(b);
}

bool equal(dom::element a, dom::element b);

bool objects_equal(dom::object a, dom::object b) {
    if (a.size() != b.size()) return false;
    for (auto field : a) {
        dom::element other;
        if (b.at_key(field.key).get(other) != simdjson::SUCCESS) return false;
        if (!equal(field.value, other)) return false;
    }
    return true;
}

bool arrays_equal(dom::array a, dom::array b) {
    if (a.size() != b.size()) return false;
    auto it = b.begin();
    for (auto element : a) {
        if (!equal(element, *it)) return false;
        ++it;
    }
    return true;
}

bool equal(dom::element a, dom::element b) {
    auto ta = a.type(), tb = b.type();
    if (is_number(ta) && is_number(tb)) return numbers_equal(a, b);
    if (ta != tb) return false;
    switch (ta) {
        case dom::element_type::OBJECT:
            return objects_equal(a.get_object().value(), b.get_object().value());
        case dom::element_type::ARRAY:
            return arrays_equal(a.get_array().value(), b.get_array().value());
        case dom::element_type::STRING:
            return std::string_view(a) == std::string_view(b);
        case dom::element_type::BOOL:
            return bool(a) == bool(b);
        case dom::element_type::NULL_VALUE:
            return true;
        default:
            return false;
    }
}

// Two parsers: the element of one document must stay valid while the
// other is parsed.
struct Parsers {
    dom::parser first, second;
};
Parsers& thread_parsers() {
    thread_local Parsers parsers;
    return parsers;
}

}  // namespace

bool json_equal(std::string_view a, std::string_view b) {
    auto& parsers = thread_parsers();
    dom::element left, right;
    if (parsers.first.parse(a.data(), a.size()).get(left) != simdjson::SUCCESS) return false;
    if (parsers.second.parse(b.data(), b.size()).get(right) != simdjson::SUCCESS) return false;
    return equal(left, right);
}

bool json_member_equals(std::string_view object_json, std::string_view key, std::string_view value_json) {
    auto& parsers = thread_parsers();
    dom::element object, value, wanted;
    if (parsers.first.parse(object_json.data(), object_json.size()).get(object) != simdjson::SUCCESS) return false;
    if (object.type() != dom::element_type::OBJECT) return false;
    if (object.get_object().at_key(key).get(value) != simdjson::SUCCESS) return false;
    if (parsers.second.parse(value_json.data(), value_json.size()).get(wanted) != simdjson::SUCCESS) return false;
    return equal(value, wanted);
}

}  // namespace mnemo::core
