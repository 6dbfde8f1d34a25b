// The table handed to mnemod. Every entry runs behind a guard so that no C++
// exception (an allocation failure) ever crosses the C boundary.
#include "errors.h"
#include "ops.h"

#include <exception>
#include <new>
#include <tuple>
#include <type_traits>

namespace mnemo::memory {

namespace {

// Calls Op and turns an escaping exception into MNEMO_E_INTERNAL; every
// operation takes its mnemo_error* last.
template <typename Sig>
struct Guard;

template <typename... Args>
struct Guard<int(Args...)> {
    template <int (*Op)(Args...)>
    static int call(Args... args) {
        mnemo_error* err = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
        try {
            return Op(args...);
        } catch (const std::bad_alloc&) {
            return fail(err, MNEMO_E_INTERNAL, "memory backend is out of memory");
        } catch (const std::exception& e) {
            return fail(err, MNEMO_E_INTERNAL, "memory backend failed: %s", e.what());
        }
    }
};

template <auto Op>
constexpr auto guarded = &Guard<std::remove_pointer_t<decltype(Op)>>::template call<Op>;

const mnemo_storage_ops kOps = {
    sizeof(mnemo_storage_ops),
    guarded<open_backend>,
    close_backend,
    guarded<ping>,
    guarded<stats>,
    guarded<session_create>,
    guarded<session_get>,
    guarded<session_list>,
    guarded<session_delete>,
    guarded<user_purge>,
    guarded<events_append>,
    guarded<events_list>,
    guarded<events_rewrite>,
    guarded<events_rewind>,
    guarded<state_patch>,
    guarded<state_get>,
    guarded<state_delete>,
    guarded<summary_put>,
    guarded<summary_list>,
    guarded<track_append>,
    guarded<track_list>,
    guarded<lane_get>,
    guarded<lane_write>,
    guarded<lane_list>,
    guarded<lane_recover>,
    guarded<sweep_step>,
    guarded<finalize_list>,
    guarded<finalize_done>,
    guarded<search>,
    guarded<export_step>,
    guarded<import_records>,
    guarded<finalize_done_batch>,
    nullptr,  // events_append_async: never called on a non-blocking backend
    guarded<memory_write>,
    guarded<memory_get>,
    guarded<memory_patch>,
    guarded<memory_delete>,
    guarded<memory_list>,
    guarded<memory_search>,
    guarded<memory_keys>,
    guarded<memory_candidates>,
    guarded<memory_changes>,
    guarded<memory_embed>,
    guarded<memory_pending>,
    guarded<memory_reembed>,
    guarded<memory_count>,
    guarded<session_extracted>,
    nullptr,  // write_async: never called on a non-blocking backend
    guarded<app_list>,
    guarded<user_list>,
    guarded<session_tracks>,
    nullptr,  // check: nothing to reach; --check-config checks the (empty) options alone
};

}  // namespace

const mnemo_storage_ops* storage_ops() {
    return &kOps;
}

}  // namespace mnemo::memory
