// A small JSON tree: how storage options are handed to plugins and how
// config values are shown to Lua and the console. Objects keep key order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mnemo::config {

struct JsonMember;

class Json {
public:
    using Array = std::vector<Json>;
    using Object = std::vector<JsonMember>;

    // Defined below JsonMember: building the variant needs Object's element
    // complete (libstdc++ checks it eagerly under clang).
    Json();  // null
    Json(bool value);
    Json(int64_t value);
    Json(uint64_t value);
    Json(double value);
    Json(std::string value);
    Json(const char* value);
    Json(Array value);
    Json(Object value);

    static Json object();
    // A whole number of microseconds as seconds: 5000000 -> 5, 5000 -> 0.005.
    static Json seconds(int64_t microseconds);
    static Json strings(const std::vector<std::string>& items);

    bool is_object() const { return std::holds_alternative<Object>(value_); }
    const Object* as_object() const { return std::get_if<Object>(&value_); }
    const Array* as_array() const { return std::get_if<Array>(&value_); }
    // Appends (or replaces) a member; only on objects.
    Json& set(std::string key, Json value);
    const Json* find(std::string_view key) const;

    std::string dump() const;
    // Parses JSON text as produced by dump(); nullopt when malformed.
    static std::optional<Json> parse(std::string_view text);

private:
    std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, Array, Object> value_;
};

struct JsonMember {
    std::string key;
    Json value;
};

inline Json::Json() = default;
inline Json::Json(bool value) : value_(value) {}
inline Json::Json(int64_t value) : value_(value) {}
inline Json::Json(uint64_t value) : value_(value) {}
inline Json::Json(double value) : value_(value) {}
inline Json::Json(std::string value) : value_(std::move(value)) {}
inline Json::Json(const char* value) : value_(std::string(value)) {}
inline Json::Json(Array value) : value_(std::move(value)) {}
inline Json::Json(Object value) : value_(std::move(value)) {}
inline Json Json::object() {
    return Json(Object{});
}

}  // namespace mnemo::config
