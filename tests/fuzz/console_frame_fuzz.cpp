// Fuzz target: the admin socket's frame decoder (console_wire/frame.h), used
// by mnemod on what mnemoctl sends and by mnemoctl on what mnemod answers.
// The same bytes fed whole, one byte at a time and in pieces whose sizes the
// first input byte chooses must give the same frames and the same error; the
// frames decoded, encoded again, must decode to themselves.
#include "console_wire/frame.h"
#include "fuzz_check.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mnemo::console_wire::Decoder;
using mnemo::console_wire::Frame;

void require(bool condition, const char* what, std::string_view text) {
    mnemo::fuzz::require(condition, "console_frame", what, text);
}

struct Outcome {
    std::vector<Frame> frames;
    std::optional<std::string> error;
    bool idle = true;
};

// Feeds `bytes` in pieces of `piece` bytes (0: whole), stopping at the first
// error as the connection does (it closes).
Outcome decode(std::string_view bytes, size_t piece) {
    Decoder decoder;
    Outcome outcome;
    size_t step = piece == 0 ? bytes.size() : piece;
    for (size_t at = 0; at < bytes.size() && !outcome.error; at += step) {
        outcome.error = decoder.feed(bytes.substr(at, step), outcome.frames);
    }
    outcome.idle = decoder.idle();
    return outcome;
}

bool same_frames(const std::vector<Frame>& a, const std::vector<Frame>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].type != b[i].type || a[i].payload != b[i].payload) return false;
    }
    return true;
}

void require_same(const Outcome& a, const Outcome& b, const char* what, std::string_view bytes) {
    require(same_frames(a.frames, b.frames), what, bytes);
    require(a.error == b.error, what, bytes);
    if (!a.error) require(a.idle == b.idle, what, bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    size_t piece = 2 + data[0] % 31;
    std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    Outcome reference = decode(bytes, 0);
    require_same(reference, decode(bytes, 1), "one byte at a time differs from whole", bytes);
    require_same(reference, decode(bytes, piece), "fed in pieces differs from whole", bytes);

    std::string encoded;
    for (const Frame& frame : reference.frames) encoded += mnemo::console_wire::encode(frame.type, frame.payload);
    Outcome again = decode(encoded, 0);
    require(!again.error && again.idle, "encoded frames do not decode cleanly", encoded);
    require(same_frames(reference.frames, again.frames), "encoded frames decode to other frames", encoded);
    return 0;
}
