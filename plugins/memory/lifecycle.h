// lifecycle.h -- how a session moves towards its end in the memory backend:
// expiry tracking, finalize marks, soft deletes and purges, each keeping the
// store-level indexes (expiring, finalizing, purgeable, deleted_events) exact
// so sweeps and finalize lists walk only the rows that are due.
#pragma once

#include "memory_store.h"

namespace mnemo::memory {

// Sets the session's expires_at and its place in the expiry index.
void set_session_expiry(Store& store, SessionRec& session, int64_t expires_at_us);
// Marks the session for finalize with reason unless it was ever marked: a
// session is finalized at most once, whatever ends it later.
void mark_finalize(Store& store, SessionRec& session, int reason, int64_t now_us);
// The finalize is over (done, or given up after its attempts).
void finish_finalize(Store& store, SessionRec& session, int64_t now_us);
// deleted_at = now: out of the list and expiry indexes, marked for finalize
// with reason, purgeable once finalized.
void soft_delete_session(Store& store, const SessionRef& ref, int64_t now_us, int reason);
// Takes the session out of every index; the caller drops or replaces it.
void forget_session(Store& store, const SessionRef& ref);
// Forgets the session and frees it with everything it holds.
void purge_session(Store& store, const SessionRef& ref);
// Soft-deletes the visible events from index `from` on, recording them for
// the purge sweep; returns how many.
int64_t soft_delete_events(Store& store, SessionRec& session, size_t from, int64_t now_us);

}  // namespace mnemo::memory
