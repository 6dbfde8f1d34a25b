#include "pipeline_fixture.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <thread>

#include "core/plugin_host.h"
#include "storage/plugin_loader.h"

namespace mnemo::memory::pipeline_test {
namespace {

mnemo_str str(const std::string& text) {
    return {text.data(), text.size()};
}
std::string own(mnemo_str text) {
    return text.ptr ? std::string(text.ptr, text.len) : std::string();
}

// The storage plugin's table with memory_pending and memory_embed behind a switch.
std::atomic<bool> storage_down{false};
const mnemo_storage_ops* real_ops = nullptr;

int refuse(mnemo_error* err) {
    err->code = MNEMO_E_UNAVAILABLE;
    std::snprintf(err->message, sizeof err->message, "%s", "database is down (test switch)");
    return MNEMO_E_UNAVAILABLE;
}
int switched_pending(mnemo_backend* backend, const mnemo_memory_pending_req* req, const mnemo_sink* sink,
                     mnemo_error* err) {
    return storage_down ? refuse(err) : real_ops->memory_pending(backend, req, sink, err);
}
int switched_embed(mnemo_backend* backend, const mnemo_memory_embed_req* req, const mnemo_sink* sink,
                   mnemo_error* err) {
    return storage_down ? refuse(err) : real_ops->memory_embed(backend, req, sink, err);
}

// Loads mnemo_memory.so through mnemod's loader once, then lends every test the switched table.
std::unique_ptr<storage::LoadedPlugin> load_switched_plugin() {
    static mnemo_storage_ops switched_ops;
    static mnemo_plugin switched;
    static std::string loaded_path;
    if (real_ops == nullptr) {
        storage::LoadOutcome loaded =
            storage::load_plugin(std::string(MNEMO_BUILD_PLUGIN_DIR) + "/mnemo_memory.so", "");
        if (!loaded.plugin) {
            ADD_FAILURE() << loaded.error;
            return nullptr;
        }
        real_ops = loaded.plugin->descriptor->ops;
        switched_ops = *real_ops;
        switched_ops.memory_pending = switched_pending;
        switched_ops.memory_embed = switched_embed;
        switched = *loaded.plugin->descriptor;
        switched.ops = &switched_ops;
        loaded_path = loaded.plugin->path;
    }
    auto plugin = std::make_unique<storage::LoadedPlugin>();
    plugin->path = loaded_path;
    plugin->descriptor = &switched;
    return plugin;
}

// Waits on the script's condition variable for up to `limit`, or until cancelled.
template <class Predicate>
bool wait_cancellable(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                      const std::atomic<bool>& cancel, std::chrono::microseconds limit, Predicate done) {
    auto until = std::chrono::steady_clock::now() + limit;
    while (!done() && !cancel) {
        if (changed.wait_until(lock, std::min(until, std::chrono::steady_clock::now() +
                                                         std::chrono::milliseconds(5))) == std::cv_status::timeout &&
            std::chrono::steady_clock::now() >= until) {
            return false;
        }
    }
    return !cancel;
}

}  // namespace

Vector fake_vector(const std::string& text) {
    float sum = 0;
    for (unsigned char c : text) sum += static_cast<float>(c);
    return {static_cast<float>(text.size()), sum, text.empty() ? 0.0f : static_cast<float>(text.front()), 1.0f};
}

void EmbedderScript::open_gate() {
    std::lock_guard lock(mutex);
    gate_closed = false;
    changed.notify_all();
}

void EmbedderScript::set_failing(bool failing) {
    std::lock_guard lock(mutex);
    always_fail = failing;
}

void EmbedderScript::wait_at_gate(int count) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return waiting_at_gate >= count; });
}

size_t EmbedderScript::times_embedded(const std::string& text) {
    std::lock_guard lock(mutex);
    return static_cast<size_t>(std::count(texts.begin(), texts.end(), text));
}

EmbedOutcome FakeEmbedder::embed(const std::vector<std::string>& texts, const config::EmbedderConfig& settings,
                                 const std::atomic<bool>& cancel) {
    std::unique_lock lock(script_.mutex);
    ++script_.calls;
    script_.texts.insert(script_.texts.end(), texts.begin(), texts.end());
    if (script_.gate_closed) {
        ++script_.waiting_at_gate;
        script_.changed.notify_all();
        bool opened = wait_cancellable(lock, script_.changed, cancel, std::chrono::hours(1),
                                       [&] { return !script_.gate_closed; });
        --script_.waiting_at_gate;
        if (!opened) return {"cancelled", {}};
    }
    if (script_.latency.count() > 0) {
        std::chrono::microseconds timeout(settings.timeout_us);
        bool in_time = script_.latency <= timeout;
        wait_cancellable(lock, script_.changed, cancel, std::min(script_.latency, timeout), [] { return false; });
        if (cancel) return {"cancelled", {}};
        if (!in_time)
            return {"fake embedder timed out after " + std::to_string(settings.timeout_us / 1000) + " ms", {}};
    }
    if (script_.always_fail) return {"fake embedder refuses: scripted failure", {}};
    EmbedOutcome outcome;
    for (const std::string& text : texts) outcome.vectors.push_back(fake_vector(text));
    return outcome;
}

void set_storage_down(bool down) {
    storage_down = down;
}

void PipelineTest::SetUp() {
    std::unique_ptr<storage::LoadedPlugin> plugin = load_switched_plugin();
    ASSERT_NE(plugin, nullptr);
    std::string error;
    backend = storage::Backend::open(std::move(plugin), core::plugin_host(), "{}", &error);
    ASSERT_NE(backend, nullptr) << error;
    ASSERT_TRUE(backend->memories());
}

void PipelineTest::TearDown() {
    set_storage_down(false);
    script.open_gate();
}

config::MemoryConfig PipelineTest::memory_config() const {
    config::MemoryConfig memory;
    memory.dimensions = kDimensions;
    memory.queue_size = 100;
    memory.embedder.kind = config::EmbedderConfig::Kind::Command;
    memory.embedder.model = kModel;
    memory.embedder.workers = 1;
    memory.embedder.batch = 4;
    memory.embedder.retries = 2;
    memory.embedder.timeout_us = 10'000'000;
    return memory;
}

PipelineOptions PipelineTest::pipeline_options() {
    PipelineOptions options;
    options.workers.backoff_initial_us = 1000;
    options.workers.backoff_max_us = 4000;
    options.workers.make_embedder = [this] { return std::make_unique<FakeEmbedder>(script); };
    options.rescan_interval = std::chrono::hours(1);
    options.page = 3;  // several pages in every read of these tests
    return options;
}

std::unique_ptr<EmbedPipeline> PipelineTest::make_pipeline(const config::MemoryConfig& memory) {
    return std::make_unique<EmbedPipeline>(*backend, memory, clock, pipeline_options());
}

std::unique_ptr<EmbedPipeline> PipelineTest::start_held() {
    {
        std::lock_guard lock(script.mutex);
        script.gate_closed = true;
    }
    auto pipeline = make_pipeline();
    pipeline->start();
    script.wait_at_gate(1);
    return pipeline;
}

int64_t PipelineTest::write(const std::string& id, const std::string& text) {
    std::string folded;
    for (char c : text) folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    mnemo_memory_input item{};
    item.id = str(id);
    item.id_from_client = 1;
    item.text = str(text);
    item.folded_text = str(folded);
    std::string app_name = app, user = "u1";
    mnemo_memory_write_req req{str(app_name), str(user), &item, 1, 1, kDimensions, clock.now_us()};
    int64_t key = 0;
    mnemo_sink sink{};
    sink.ctx = &key;
    sink.memory_written = [](void* ctx, size_t, const mnemo_memory* memory, int) {
        *static_cast<int64_t*>(ctx) = memory->key;
    };
    auto error = backend->call(
        [&](mnemo_error* err) { return backend->ops().memory_write(backend->handle(), &req, &sink, err); });
    EXPECT_FALSE(error) << error->message;
    return key;
}

void PipelineTest::remove(const std::string& id) {
    std::string app_name = app, user = "u1";
    mnemo_memory_delete_req req{{str(app_name), str(user), str(id), clock.now_us()}};
    auto error = backend->call([&](mnemo_error* err) {
        mnemo_sink none{};
        return backend->ops().memory_delete(backend->handle(), &req, &none, err);
    });
    EXPECT_FALSE(error) << error->message;
}

Stored PipelineTest::get(const std::string& id) {
    std::string app_name = app, user = "u1";
    mnemo_memory_get_req req{{str(app_name), str(user), str(id), clock.now_us()}, 1};
    Stored stored;
    mnemo_sink sink{};
    sink.ctx = &stored;
    sink.memory = [](void* ctx, const mnemo_memory* memory) {
        Stored& row = *static_cast<Stored*>(ctx);
        row = {memory->key, memory->text_version, memory->embedding, own(memory->text), std::nullopt, {}};
        if (memory->embedding_model.ptr) row.model = own(memory->embedding_model);
        if (memory->vector.values)
            row.vector.assign(memory->vector.values, memory->vector.values + memory->vector.dims);
    };
    auto error =
        backend->call([&](mnemo_error* err) { return backend->ops().memory_get(backend->handle(), &req, &sink, err); });
    EXPECT_FALSE(error) << error->message;
    return stored;
}

mnemo_memory_count_result PipelineTest::count() {
    std::string app_name = app;
    mnemo_memory_count_req req{str(app_name), {nullptr, 0}, clock.now_us()};
    mnemo_memory_count_result result{};
    mnemo_sink sink{};
    sink.ctx = &result;
    sink.memory_count = [](void* ctx, const mnemo_memory_count_result* count) {
        *static_cast<mnemo_memory_count_result*>(ctx) = *count;
    };
    auto error = backend->call(
        [&](mnemo_error* err) { return backend->ops().memory_count(backend->handle(), &req, &sink, err); });
    EXPECT_FALSE(error) << error->message;
    return result;
}

bool PipelineTest::wait_until_none_pending() {
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (count().pending > 0) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

bool PipelineTest::wait_until_idle(const EmbedPipeline& pipeline) {
    if (!wait_until_none_pending()) return false;
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (pipeline.stats().in_flight > 0) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

Settled PipelineTest::settle(EmbedPipeline& pipeline, std::vector<int64_t> keys, std::chrono::milliseconds wait) {
    auto answered = std::make_shared<std::promise<Settled>>();
    pipeline.when_settled(app, std::move(keys), std::chrono::steady_clock::now() + wait,
                          [answered](Settled settled) { answered->set_value(std::move(settled)); });
    return answered->get_future().get();
}

}  // namespace mnemo::memory::pipeline_test
