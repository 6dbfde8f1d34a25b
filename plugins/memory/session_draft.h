// session_draft.h -- creating a session in two steps, so an operation that
// creates one as part of a larger write (lane_write) checks everything before
// it changes anything: draft (all checks, nothing stored), then commit.
#pragma once

#include "memory_store.h"

#include <optional>

namespace mnemo::memory {

struct SessionDraft {
    std::unique_ptr<SessionRec> session;
    std::optional<StateStage> stage;
};

// EXISTS for a live id, INVALID for a bad state op, TOO_LARGE for a scope
// over max_state_bytes; nothing of the store changes but empty app and user
// records.
int draft_session(Store& store, const mnemo_session_create_req& req, SessionDraft& draft, mnemo_error* err);
// Stores the drafted session and its state, replacing a dead predecessor.
SessionRef commit_session(Store& store, SessionDraft& draft, const mnemo_session_create_req& req);

}  // namespace mnemo::memory
