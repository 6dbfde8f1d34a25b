// locks.h -- the advisory lock keys of the work several mnemod processes on
// one database must not do at once. Advisory locks are per database, so a
// key needs no database name; these spell "mnemo" and a number.
#pragma once

#include <cstdint>

namespace mnemo::postgres {

inline constexpr int64_t kMigrateLock = 0x6d6e656d6f01;
inline constexpr int64_t kSweepLock = 0x6d6e656d6f02;

}  // namespace mnemo::postgres
