/*
 * core/clock.h -- the one source of "now".
 *
 * Every rule that depends on time (TTLs, reset policies, timestamps) reads
 * the Clock it is given, so tests can move time instead of sleeping.
 */
#pragma once

#include <atomic>
#include <cstdint>

namespace mnemo::core {

class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t now_us() const = 0;  // Unix microseconds, UTC
};

class SystemClock final : public Clock {
public:
    int64_t now_us() const override;
};

// A clock tests set by hand.
class ManualClock final : public Clock {
public:
    explicit ManualClock(int64_t start_us) : now_(start_us) {}
    int64_t now_us() const override { return now_.load(); }
    void set(int64_t us) { now_.store(us); }
    void advance(int64_t us) { now_.fetch_add(us); }

private:
    std::atomic<int64_t> now_;
};

}  // namespace mnemo::core
