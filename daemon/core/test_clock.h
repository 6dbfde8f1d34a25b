/*
 * core/test_clock.h -- a "now" that tests can move, only in builds configured
 * with -DMNEMO_TEST_CLOCK=ON.
 *
 * Owns the daemon's clock in such builds: the system clock plus an offset in
 * whole seconds read, at every now_us(), from the file named by the
 * environment variable MNEMO_TEST_CLOCK_FILE (no variable, no file or no
 * number there: no offset). Tests of TTLs, resume windows and idle resets
 * write a larger offset instead of sleeping through wall-clock windows, and
 * the offset outlives a restart of the daemon because it lives in the file.
 * Writers replace the file whole (write a temporary file, rename it), so a
 * read never sees half a number. The option is OFF by default and cpack
 * refuses to package a build that has it, so no installed mnemod reads the
 * variable.
 */
#pragma once

#ifdef MNEMO_TEST_CLOCK

#include "core/clock.h"

#include <string>

namespace mnemo::core {

class TestClock final : public Clock {
public:
    TestClock();
    int64_t now_us() const override;
    const std::string& offset_file() const { return offset_file_; }  // "" when the variable is unset

private:
    std::string offset_file_;
    SystemClock system_;
};

}  // namespace mnemo::core

#endif  // MNEMO_TEST_CLOCK
