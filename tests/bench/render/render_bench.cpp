// What the host spends turning the newest 50 events of a session into the
// body of a read (BENCH.md workload B), the store and the network left out:
//   mnemo_bench_render [--benchmark_repetitions=5 ...]
// BM_RenderEvents renders 50 events of the benchmark payload the way an event
// read does (EventArrayRenderer fed one mnemo_event at a time); BM_CopyBody
// copies the bytes that produces, the floor no renderer goes under. Compare
// the two of one run: bytes per second and the ratio.
#include "core/render.h"
#include "storage/rows.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace {

constexpr int kEvents = 50;

struct EventFields {
    std::string id, author = "user", role = "user", content, filter_key;
    int64_t seq = 0, timestamp_us = 0;
};

// The workload's payload: {"text": "<480 ASCII characters>"}, ids as mnemod
// generates them, timestamps a few milliseconds apart.
std::vector<EventFields> bench_events() {
    std::vector<EventFields> events(kEvents);
    for (int i = 0; i < kEvents; ++i) {
        EventFields& e = events[static_cast<size_t>(i)];
        e.id = "evt_01JD3K9QX5T7V2M8N4P6R0S" + std::to_string(100 + i);
        e.seq = 951 + i;
        e.timestamp_us = 1795000000000000 + int64_t{i} * 3217;
        e.content = "{\"text\":\"" + std::string(480, static_cast<char>('a' + i % 26)) + "\"}";
    }
    return events;
}

mnemo_event as_row(const EventFields& e) {
    mnemo_event row{};
    row.seq = e.seq;
    row.id = mnemo::storage::str(e.id);
    row.author = mnemo::storage::str(e.author);
    row.role = mnemo::storage::str(e.role);
    row.content_json = mnemo::storage::str(e.content);
    row.filter_key = mnemo::storage::str(e.filter_key);
    row.timestamp_us = e.timestamp_us;
    return row;
}

std::string render(const std::vector<mnemo_event>& rows) {
    mnemo::storage::Collector collector;
    mnemo::core::EventArrayRenderer renderer([](mnemo::core::JsonWriter& w) {
        w.begin_object().key("events");
        return true;
    });
    renderer.attach(collector);
    const mnemo_sink* sink = collector.sink();
    for (const mnemo_event& row : rows) sink->event(sink->ctx, &row);
    renderer.finish();
    renderer.writer().end_object();
    return renderer.take();
}

void BM_RenderEvents(benchmark::State& state) {
    std::vector<EventFields> events = bench_events();
    std::vector<mnemo_event> rows;
    for (const EventFields& e : events) rows.push_back(as_row(e));
    size_t bytes = 0;
    for (auto _ : state) {
        std::string body = render(rows);
        bytes = body.size();
        benchmark::DoNotOptimize(body.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
    state.counters["body_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_RenderEvents);

void BM_CopyBody(benchmark::State& state) {
    std::vector<EventFields> events = bench_events();
    std::vector<mnemo_event> rows;
    for (const EventFields& e : events) rows.push_back(as_row(e));
    const std::string rendered = render(rows);
    for (auto _ : state) {
        std::string body(rendered);
        benchmark::DoNotOptimize(body.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * rendered.size()));
}
BENCHMARK(BM_CopyBody);

}  // namespace

BENCHMARK_MAIN();
