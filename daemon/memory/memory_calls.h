/*
 * memory/memory_calls.h -- how the memory operations call storage (shared by
 * memory_service.cpp and memory_recall.cpp).
 */
#pragma once

#include "core/errors.h"
#include "core/service.h"
#include "memory/memory_service.h"
#include "storage/rows.h"

#include <fmt/format.h>

#include <optional>

namespace mnemo::memory {

// A backend without memory ops answers every memory route with this.
inline core::Error no_memories(const storage::Backend& backend) {
    return core::invalid(fmt::format(
        "the storage plugin '{}' keeps no memories; configure a storage plugin with memories (memory, sqlite)",
        backend.descriptor().name));
}

// Runs op(backend, req, sink, err) of the plugin's table, turning a failure into an Outcome.
template <typename Op, typename Req>
std::optional<core::Outcome> call_memory_op(const MemoryEnv& env, Op op, const Req& req, storage::Collector& into) {
    auto failure = env.backend.call([&](mnemo_error* err) { return op(env.backend.handle(), &req, into.sink(), err); });
    if (failure) return core::Outcome::fail(core::from_storage(*failure));
    return std::nullopt;
}

}  // namespace mnemo::memory
