#include "core/test_clock.h"

#ifdef MNEMO_TEST_CLOCK

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace mnemo::core {
namespace {

constexpr int64_t kSecondUs = 1'000'000;

// The offset in seconds the file holds now; 0 when it cannot be read. Read at every call, not
// cached, so that a test's next request already sees the offset it has just written.
int64_t read_offset_seconds(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[32] = {};
    ssize_t got = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (got <= 0) return 0;
    char* end = nullptr;
    long long seconds = std::strtoll(text, &end, 10);
    return end == text ? 0 : static_cast<int64_t>(seconds);
}

}  // namespace

TestClock::TestClock() {
    if (const char* path = std::getenv("MNEMO_TEST_CLOCK_FILE")) offset_file_ = path;
}

int64_t TestClock::now_us() const {
    int64_t now = system_.now_us();
    return offset_file_.empty() ? now : now + read_offset_seconds(offset_file_) * kSecondUs;
}

}  // namespace mnemo::core

#endif  // MNEMO_TEST_CLOCK
