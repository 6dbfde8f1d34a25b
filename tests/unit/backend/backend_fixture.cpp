#include "backend/backend_fixture.h"

#include <dlfcn.h>

#include <cstdlib>
#include <iostream>
#include <type_traits>

namespace mnemo::backend_test {
namespace {

// The callback `Field` of the sink: notes `Letter`, then hands over to the
// collector's own callback.
template <auto Field, char Letter, typename Fn>
struct Traced;
template <auto Field, char Letter, typename... Args>
struct Traced<Field, Letter, void (*)(void*, Args...)> {
    static void call(void* ctx, Args... args) {
        auto* trace = static_cast<Recorder::Trace*>(ctx);
        trace->order += Letter;
        const mnemo_sink* inner = trace->collector.sink();
        (inner->*Field)(inner->ctx, args...);
    }
};

// One field of each row, in order.
template <typename Row, typename Field>
auto each(const std::vector<Row>& rows, Field field) {
    std::vector<std::invoke_result_t<Field, const Row&>> out;
    for (const Row& row : rows) out.push_back(field(row));
    return out;
}

template <auto Field, char Letter>
void trace(mnemo_sink& sink) {
    using Fn = std::remove_reference_t<decltype(sink.*Field)>;
    sink.*Field = &Traced<Field, Letter, Fn>::call;
}

}  // namespace

Plugin load_plugin(const std::string& file) {
    Plugin plugin;
    plugin.handle = dlopen((std::string(MNEMO_BUILD_PLUGIN_DIR) + "/" + file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!plugin.handle) return plugin;
    auto entry = reinterpret_cast<mnemo_plugin_entry_fn>(dlsym(plugin.handle, MNEMO_PLUGIN_ENTRY_SYMBOL));
    if (entry) plugin.descriptor = entry();
    return plugin;
}

const mnemo_plugin& plugin(const std::string& file) {
    // One plugin per test binary: the first file asked for is the one kept.
    static const mnemo_plugin* loaded = [&file] {
        Plugin plugin = load_plugin(file);
        if (plugin.descriptor == nullptr) {
            const char* why = dlerror();
            std::cerr << "cannot load " << file << " from " << MNEMO_BUILD_PLUGIN_DIR << ": "
                      << (why ? why : "no entry symbol") << "\n";
            std::abort();
        }
        return plugin.descriptor;
    }();
    return *loaded;
}

mnemo_str S(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}

mnemo_str maybe(const Opt& s) {
    return s ? S(*s) : kAbsent;
}

std::vector<int64_t> Rows::seqs() const {
    return each(events, [](const storage::EventRow& e) { return e.seq; });
}

std::vector<std::string> Rows::session_ids() const {
    return each(sessions, [](const storage::SessionRow& s) { return s.id; });
}

std::vector<std::string> Rows::pending_ids() const {
    return each(pending, [](const storage::FinalizePending& p) { return p.session.id; });
}

std::vector<int64_t> Rows::hit_seqs() const {
    return each(hits, [](const storage::SearchHit& hit) { return hit.seq; });
}

Opt Rows::state_value(int scope, const std::string& key) const {
    for (const storage::StateEntry& entry : state)
        if (entry.scope == scope && entry.key == key) return entry.value_json;
    return std::nullopt;
}

std::map<std::string, std::string> Rows::state_of(int scope) const {
    std::map<std::string, std::string> out;
    for (const storage::StateEntry& entry : state)
        if (entry.scope == scope) out[entry.key] = entry.value_json;
    return out;
}

std::vector<std::string> Rows::memory_ids() const {
    return each(memories, [](const storage::MemoryRow& m) { return m.id; });
}

std::vector<std::string> Rows::hit_ids() const {
    return each(memory_hits, [](const storage::MemoryHit& hit) { return hit.memory.id; });
}

std::vector<double> Rows::relevance() const {
    return each(memory_hits, [](const storage::MemoryHit& hit) { return hit.relevance; });
}

std::vector<int> Rows::created() const {
    return each(written, [](const storage::MemoryWritten& w) { return w.created ? 1 : 0; });
}

std::vector<size_t> Rows::indexes() const {
    return each(written, [](const storage::MemoryWritten& w) { return w.index; });
}

Recorder::Recorder() : sink_{} {
    sink_.ctx = &trace_;
    trace<&mnemo_sink::session, 'S'>(sink_);
    trace<&mnemo_sink::state, 'K'>(sink_);
    trace<&mnemo_sink::event, 'E'>(sink_);
    trace<&mnemo_sink::summary, 'U'>(sink_);
    trace<&mnemo_sink::track, 'T'>(sink_);
    trace<&mnemo_sink::lane, 'L'>(sink_);
    trace<&mnemo_sink::lane_session, 'P'>(sink_);
    trace<&mnemo_sink::finalize_pending, 'F'>(sink_);
    trace<&mnemo_sink::search_hit, 'H'>(sink_);
    trace<&mnemo_sink::has_more, 'C'>(sink_);
    trace<&mnemo_sink::version, 'C'>(sink_);
    trace<&mnemo_sink::rewritten, 'C'>(sink_);
    trace<&mnemo_sink::rewound, 'C'>(sink_);
    trace<&mnemo_sink::purged, 'C'>(sink_);
    trace<&mnemo_sink::stats, 'C'>(sink_);
    trace<&mnemo_sink::recovered, 'C'>(sink_);
    trace<&mnemo_sink::swept, 'C'>(sink_);
    trace<&mnemo_sink::finalized, 'C'>(sink_);
    trace<&mnemo_sink::memory, 'M'>(sink_);
    trace<&mnemo_sink::memory_written, 'W'>(sink_);
    trace<&mnemo_sink::memory_hit, 'R'>(sink_);
    trace<&mnemo_sink::memory_key, 'Y'>(sink_);
    trace<&mnemo_sink::memory_feed, 'C'>(sink_);
    trace<&mnemo_sink::memory_embedded, 'C'>(sink_);
    trace<&mnemo_sink::memory_count, 'C'>(sink_);
}

Rows Recorder::out() {
    Rows rows;
    static_cast<storage::Collected&>(rows) = trace_.collector.result();
    rows.order = trace_.order;
    return rows;
}

}  // namespace mnemo::backend_test
