// backend_fixture.h -- what the backend-level suites (unit_memory,
// unit_sqlite, unit_mysql) share to drive a storage plugin through its ABI
// table the way mnemod does: the plugin loaded from the build, the host that
// opens one store of it, request strings, and each call's answer collected by
// mnemod's own storage::Collector, with the order of the sink's callbacks.
#pragma once

#include "mnemo_plugin.h"
#include "storage/rows.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::backend_test {

using Opt = std::optional<std::string>;

inline constexpr int64_t kNow = 1'700'000'000'000'000;
inline constexpr int64_t kSecond = 1'000'000;

// A plugin file of the build's plugin folder, dlopened as mnemod does; both
// null when it fails (dlerror() says why), descriptor null without an entry.
struct Plugin {
    void* handle = nullptr;
    const mnemo_plugin* descriptor = nullptr;
};
Plugin load_plugin(const std::string& file);
// The plugin under test, loaded once; the binary stops when it cannot be.
const mnemo_plugin& plugin(const std::string& file);

// Opens one store of the plugin under test; every open() after a close opens
// the same store again (an empty one for a plugin that is not persistent).
// Each suite provides make_backend_host() for its plugin.
class BackendHost {
public:
    virtual ~BackendHost() = default;
    virtual const mnemo_storage_ops& ops() const = 0;
    virtual mnemo_backend* open() = 0;
    virtual bool persistent() const = 0;
};
std::unique_ptr<BackendHost> make_backend_host();

// Views of strings the caller keeps alive for the request.
mnemo_str S(std::string_view s);  // present, never NULL
inline constexpr mnemo_str kAbsent{nullptr, 0};
mnemo_str maybe(const Opt& s);  // nullopt: ptr NULL

// Everything one call sent to its sink, with the order of the callbacks, one
// letter each: S session, K state, E event, U summary, T track, L lane,
// P lane_session, F finalize_pending, H search_hit, M memory, W memory_written,
// R memory_hit, Y memory_key, and C for any typed result (has_more, version,
// rewritten, ..., memory_count).
struct Rows : storage::Collected {
    std::string order;

    std::vector<int64_t> seqs() const;  // of the events
    std::vector<std::string> session_ids() const;
    std::vector<std::string> pending_ids() const;  // of finalize_list's sessions
    std::vector<int64_t> hit_seqs() const;         // of search hits
    Opt state_value(int scope, const std::string& key) const;
    std::map<std::string, std::string> state_of(int scope) const;
    std::vector<std::string> memory_ids() const;  // of memories
    std::vector<std::string> hit_ids() const;     // of memory_hits, best first
    std::vector<double> relevance() const;        // of memory_hits
    std::vector<int> created() const;             // of written, per item: 1 created, 0 not
    std::vector<size_t> indexes() const;          // of written
};

struct Answer {
    int rc = 0;
    mnemo_error err{};
    Rows out;
};

// The sink of one call.
class Recorder {
public:
    Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;
    const mnemo_sink* get() const { return &sink_; }
    Rows out();  // a copy of what the sink received so far

    struct Trace {
        storage::Collector collector;
        std::string order;
    };

private:
    Trace trace_;
    mnemo_sink sink_;
};

// Runs call(sink, err) -> status and answers what it sent.
template <typename Call>
Answer answer_of(Call&& call) {
    Recorder recorder;
    Answer answer;
    answer.rc = call(recorder.get(), &answer.err);
    answer.out = recorder.out();
    return answer;
}

}  // namespace mnemo::backend_test
