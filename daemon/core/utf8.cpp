#include "core/utf8.h"

namespace mnemo::core {
namespace {

// Length of the valid sequence at text[pos], 0 when its bytes are not one.
size_t sequence_length(std::string_view text, size_t pos) {
    auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char lead = byte(pos);
    if (lead < 0x80) return 1;
    size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || pos + length > text.size()) return 0;
    for (size_t i = 1; i < length; ++i) {
        if ((byte(pos + i) & 0xC0) != 0x80) return 0;
    }
    unsigned char second = byte(pos + 1);
    // The second byte's range is what rules out overlong forms, surrogates and values above U+10FFFF.
    if (lead == 0xE0 && second < 0xA0) return 0;
    if (lead == 0xED && second > 0x9F) return 0;
    if (lead == 0xF0 && second < 0x90) return 0;
    if (lead == 0xF4 && second > 0x8F) return 0;
    return length;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    for (size_t pos = 0; pos < text.size();) {
        size_t length = sequence_length(text, pos);
        if (length == 0) return false;
        pos += length;
    }
    return true;
}

std::string with_valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        size_t length = sequence_length(text, pos);
        if (length == 0) {
            out.append("\xEF\xBF\xBD");
            ++pos;
        } else {
            out.append(text.substr(pos, length));
            pos += length;
        }
    }
    return out;
}

}  // namespace mnemo::core
