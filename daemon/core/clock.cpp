#include "core/clock.h"

#include <chrono>

namespace mnemo::core {

int64_t SystemClock::now_us() const {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace mnemo::core
