/*
 * memory/writer_first_mutex.h -- a shared mutex that lets a waiting writer in
 * before new readers.
 *
 * std::shared_mutex on glibc prefers readers: with a few threads searching
 * back to back, put() and build_some() could wait for seconds. This one is
 * glibc's rwlock set to PREFER_WRITER_NONRECURSIVE (so a thread must not take
 * it shared twice). It meets the SharedMutex requirements, for std::unique_lock
 * and std::shared_lock.
 */
#pragma once

#include <pthread.h>

#include <system_error>

namespace mnemo::memory {

class WriterFirstMutex {
public:
    WriterFirstMutex() {
        pthread_rwlockattr_t attributes;
        pthread_rwlockattr_init(&attributes);
        pthread_rwlockattr_setkind_np(&attributes, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
        int failed = pthread_rwlock_init(&lock_, &attributes);
        pthread_rwlockattr_destroy(&attributes);
        if (failed != 0) throw std::system_error(failed, std::generic_category(), "pthread_rwlock_init");
    }
    ~WriterFirstMutex() { pthread_rwlock_destroy(&lock_); }
    WriterFirstMutex(const WriterFirstMutex&) = delete;
    WriterFirstMutex& operator=(const WriterFirstMutex&) = delete;

    void lock() { pthread_rwlock_wrlock(&lock_); }
    bool try_lock() { return pthread_rwlock_trywrlock(&lock_) == 0; }
    void unlock() { pthread_rwlock_unlock(&lock_); }
    void lock_shared() { pthread_rwlock_rdlock(&lock_); }
    bool try_lock_shared() { return pthread_rwlock_tryrdlock(&lock_) == 0; }
    void unlock_shared() { pthread_rwlock_unlock(&lock_); }

private:
    pthread_rwlock_t lock_;
};

}  // namespace mnemo::memory
