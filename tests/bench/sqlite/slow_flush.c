/* slow_flush.c -- an LD_PRELOAD shim for BENCH.md workload C: every fsync()
 * and fdatasync() of the process returns MNEMO_BENCH_FLUSH_US microseconds
 * later than the disk answered, as on a disk whose cache flush costs that
 * much (a few ms on SSDs without power-loss protection, ~10 ms on spinning
 * disks). The VM these benchmarks run on flushes in ~0.1 ms, where "many
 * requests share one fsync" has little to share; run_c.sh loads this into
 * both mnemod and the raw reference alike. Never built into mnemod. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

static void wait_for_the_disk(void) {
    const char* setting = getenv("MNEMO_BENCH_FLUSH_US");
    long us = setting ? atol(setting) : 0;
    if (us <= 0) return;
    struct timespec left = {us / 1000000, (us % 1000000) * 1000};
    int saved = errno;
    while (nanosleep(&left, &left) != 0) {}
    errno = saved;
}

int fsync(int fd) {
    static int (*real_fsync)(int);
    /* POSIX's way to store dlsym()'s answer in a function pointer. */
    if (!real_fsync) *(void**)&real_fsync = dlsym(RTLD_NEXT, "fsync");
    int rc = real_fsync(fd);
    wait_for_the_disk();
    return rc;
}

int fdatasync(int fd) {
    static int (*real_fdatasync)(int);
    if (!real_fdatasync) *(void**)&real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    int rc = real_fdatasync(fd);
    wait_for_the_disk();
    return rc;
}
