/*
 * lifecycle/allocator.h -- how the process's allocator gives memory back.
 *
 * Owns glibc malloc's settings for the daemon (nothing else calls mallopt).
 * Left alone, glibc raises its mmap threshold to the largest block freed
 * (up to 32 MiB on 64 bits), so after the first answer of a few MiB every
 * later one comes from a heap, and a worker thread's heap keeps the pages
 * after the free: ten never-reading clients of 8 MB answers left 540 MiB
 * behind, more each round (tests/bench/slow_readers.py). A fixed threshold
 * keeps large blocks mmap'd, given back at free, and a fixed trim threshold
 * returns a heap's free top past it. Not in the sanitizer builds, whose
 * allocators are their own.
 */
#pragma once

namespace mnemo::lifecycle {

// Blocks of at least this many bytes are mmap'd, each its own mapping.
inline constexpr int kMmapThresholdBytes = 1 << 20;
// Free memory at a heap's top beyond this many bytes goes back to the system.
inline constexpr int kTrimThresholdBytes = 1 << 20;

// Call first thing in main, before threads make arenas of their own.
void configure_allocator();

}  // namespace mnemo::lifecycle
