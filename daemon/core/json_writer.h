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

namespace mnemo::core {

void append_json_string(std::string& out, std::string_view text);
// Whether text goes between quotes as it is: no control byte, '"' or '\\'.
bool json_string_is_plain(std::string_view text);

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
    // The output string after the comma the next value needs, for a caller
    // that writes one whole value itself (render.cpp's events).
    std::string& value_out() {
        separate();
        return out_;
    }

    // key + value shorthands
    JsonWriter& field(std::string_view name, std::string_view text) { return key(name).string(text); }
    JsonWriter& field(std::string_view name, const char* text) { return key(name).string(text); }
    JsonWriter& field(std::string_view name, int64_t value) { return key(name).integer(value); }
    JsonWriter& field(std::string_view name, bool value) { return key(name).boolean(value); }
    JsonWriter& raw_field(std::string_view name, std::string_view json) { return key(name).raw(json); }

private:
    // Whether a comma goes before the next value (not after its key, not
    // first in its container), marking the container as holding one.
    bool take_comma() {
        if (after_key_) {
            after_key_ = false;
            return false;
        }
        if (depth_ == 0) return false;
        const uint64_t bit = uint64_t{1} << (depth_ - 1);
        const bool comma = (first_bits_ & bit) == 0;
        first_bits_ &= ~bit;
        return comma;
    }
    void separate() {
        if (take_comma()) out_.push_back(',');
    }
    void open(char bracket);
    void close(char bracket);

    std::string& out_;
    // Bit d-1 set: the container open at depth d holds no element yet. The
    // shapes mnemod writes nest a handful deep; 64 is a hard limit (open throws).
    uint64_t first_bits_ = 0;
    int depth_ = 0;
    bool after_key_ = false;
};

}  // namespace mnemo::core
