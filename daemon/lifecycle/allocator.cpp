#include "lifecycle/allocator.h"

#include <cstdlib>  // defines __GLIBC__ when the C library is glibc

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#include <malloc.h>
#define MNEMO_GLIBC_MALLOC 1
#endif

namespace mnemo::lifecycle {

void configure_allocator() {
#ifdef MNEMO_GLIBC_MALLOC
    // Setting either turns glibc's dynamic adjustment of both off.
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
    mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
#endif
}

}  // namespace mnemo::lifecycle
