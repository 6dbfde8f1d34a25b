// The admin socket's framing (console_wire/frame.h), which mnemoctl and
// mnemod both decode with.
#include "console_wire/frame.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::console_wire {
namespace {

std::optional<std::string> feed(std::string_view bytes, size_t piece, std::vector<Frame>& out) {
    Decoder decoder;
    for (size_t at = 0; at < bytes.size(); at += piece) {
        if (auto error = decoder.feed(bytes.substr(at, piece), out)) return error;
    }
    return std::nullopt;
}

TEST(ConsoleFrame, FramesComeOutWhateverTheReadSizes) {
    std::string bytes =
        encode("chunk", "=console\nreturn 1") + encode("names", "") + encode("chunk", std::string("@f\n\0x", 5));
    for (size_t piece : {size_t{1}, size_t{3}, bytes.size()}) {
        std::vector<Frame> frames;
        EXPECT_FALSE(feed(bytes, piece, frames));
        ASSERT_EQ(frames.size(), 3u);
        EXPECT_EQ(frames[0].payload, "=console\nreturn 1");
        EXPECT_EQ(frames[1].type, "names");
    }
}

// Found by the console_frame fuzz target: a header over kMaxHeader was taken
// when its newline came in the same read and refused when it came later.
TEST(ConsoleFrame, AHeaderOverTheLimitIsRefusedHoweverItIsSplit) {
    std::string bytes = "chunk " + std::string(40, '0') + "1\nx";
    for (size_t piece : {size_t{1}, size_t{7}, bytes.size()}) {
        std::vector<Frame> frames;
        auto error = feed(bytes, piece, frames);
        ASSERT_TRUE(error.has_value()) << piece;
        EXPECT_EQ(*error, "console frame header is too long");
        EXPECT_TRUE(frames.empty());
    }
    std::vector<Frame> frames;
    std::string longest = "chunk " + std::string(25, '0') + "1\nx";  // 32 bytes before the newline
    EXPECT_FALSE(feed(longest, 1, frames));
    EXPECT_EQ(frames.size(), 1u);
}

}  // namespace
}  // namespace mnemo::console_wire
