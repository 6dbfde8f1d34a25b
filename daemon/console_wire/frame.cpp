#include "console_wire/frame.h"

#include <charconv>

namespace mnemo::console_wire {

std::string encode(std::string_view type, std::string_view payload) {
    std::string bytes;
    bytes.reserve(type.size() + payload.size() + 24);
    bytes.append(type);
    bytes.push_back(' ');
    bytes.append(std::to_string(payload.size()));
    bytes.push_back('\n');
    bytes.append(payload);
    return bytes;
}

namespace {

bool valid_type(std::string_view type) {
    if (type.empty()) return false;
    for (char c : type) {
        if (c < 'a' || c > 'z') return false;
    }
    return true;
}

}  // namespace

std::optional<std::string> Decoder::parse_header(size_t newline) {
    std::string_view header(buffer_.data(), newline);
    size_t space = header.find(' ');
    if (space == std::string_view::npos) return "console frame header has no length: " + std::string(header);
    std::string_view type = header.substr(0, space);
    std::string_view digits = header.substr(space + 1);
    if (!valid_type(type)) return "console frame has a bad type: " + std::string(header);
    size_t length = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty()) {
        return "console frame has a bad length: " + std::string(header);
    }
    if (length > kMaxPayload) return "console frame of " + std::to_string(length) + " bytes is over the 64 MiB limit";
    pending_ = Frame{std::string(type), {}};
    pending_length_ = length;
    buffer_.erase(0, newline + 1);
    return std::nullopt;
}

std::optional<std::string> Decoder::feed(std::string_view bytes, std::vector<Frame>& out) {
    buffer_.append(bytes);
    for (;;) {
        if (!pending_) {
            size_t newline = buffer_.find('\n');
            // The same limit whether the newline came in this read or not.
            size_t header_bytes = newline == std::string::npos ? buffer_.size() : newline;
            if (header_bytes > kMaxHeader) return "console frame header is too long";
            if (newline == std::string::npos) return std::nullopt;
            if (auto error = parse_header(newline)) return error;
        }
        if (buffer_.size() < pending_length_) return std::nullopt;
        pending_->payload.assign(buffer_, 0, pending_length_);
        buffer_.erase(0, pending_length_);
        out.push_back(std::move(*pending_));
        pending_.reset();
    }
}

}  // namespace mnemo::console_wire
