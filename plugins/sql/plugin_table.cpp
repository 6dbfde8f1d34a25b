#include "plugin_table.h"

#include <cstdio>
#include <new>
#include <string>

namespace mnemo::sqlcore {
namespace {

void fill_error(mnemo_error* err, int code, const char* message, int64_t current_version) {
    if (!err) return;
    err->code = code;
    err->current_version = current_version;
    std::snprintf(err->message, sizeof err->message, "%s", message);
}

}  // namespace

int status_of(const std::exception_ptr& failure, mnemo_error* err, const char* engine) {
    try {
        std::rethrow_exception(failure);
    } catch (const StoreError& e) {
        fill_error(err, e.code(), e.what(), e.current_version());
        return e.code();
    } catch (const std::bad_alloc&) {
        fill_error(err, MNEMO_E_INTERNAL, (std::string(engine) + " backend: out of memory").c_str(), -1);
    } catch (const std::exception& e) {
        fill_error(err, MNEMO_E_INTERNAL, e.what(), -1);
    } catch (...) {
        fill_error(err, MNEMO_E_INTERNAL, (std::string(engine) + " backend: unknown failure").c_str(), -1);
    }
    return MNEMO_E_INTERNAL;
}

void copy_append_result(const mnemo_append_req& req, const AppendOutcome& outcome, mnemo_append_result& result) {
    result.version = outcome.version;
    for (size_t i = 0; i < outcome.seqs.size() && i < req.n_events; ++i) {
        if (result.seqs) result.seqs[i] = outcome.seqs[i];
        if (result.timestamps_us) result.timestamps_us[i] = outcome.timestamps_us[i];
    }
    result.evicted = outcome.evicted;
    result.retried = outcome.retried ? 1 : 0;
    result.created = outcome.created ? 1 : 0;
}

void throw_missing_host(const char* engine) {
    throw StoreError(MNEMO_E_INVALID, std::string(engine) +
                                          " backend: open needs the host's services (mnemo_host of ABI " +
                                          std::to_string(MNEMO_PLUGIN_ABI_VERSION) + ")");
}

}  // namespace mnemo::sqlcore
