/*
 * core/json_writer.h -- appending JSON text to a string.
 *
 * The one JSON encoder of mnemod's responses. Raw values (event content,
 * metadata, state values) are spliced in as the bytes they arrived as, so
 * nothing a client stored is ever re-encoded.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::core {

void append_json_string(std::string& out, std::string_view text);

class JsonWriter {
public:
    explicit JsonWriter(std::string& out) : out_(out) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);
    JsonWriter& string(std::string_view text);
    JsonWriter& integer(int64_t value);
    JsonWriter& number(double value);
    JsonWriter& boolean(bool value);
    JsonWriter& null();
    JsonWriter& raw(std::string_view json);      // an already-encoded JSON value
    JsonWriter& raw_timestamp(int64_t unix_us);  // "2026-11-21T10:00:00.123456Z", needs no escaping

    // key + value shorthands
    JsonWriter& field(std::string_view name, std::string_view text) { return key(name).string(text); }
    JsonWriter& field(std::string_view name, const char* text) { return key(name).string(text); }
    JsonWriter& field(std::string_view name, int64_t value) { return key(name).integer(value); }
    JsonWriter& field(std::string_view name, bool value) { return key(name).boolean(value); }
    JsonWriter& raw_field(std::string_view name, std::string_view json) { return key(name).raw(json); }

private:
    void separate();
    std::string& out_;
    std::vector<bool> first_;  // per open container: no element written yet
    bool after_key_ = false;
};

}  // namespace mnemo::core
