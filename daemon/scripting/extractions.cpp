#include "scripting/extractions.h"

#include "observability/log.h"

#include <fmt/format.h>

namespace mnemo::scripting {

std::string session_key(const core::SessionRef& ref) {
    return fmt::format("{}\x1f{}\x1f{}", ref.app, ref.user, ref.id);
}

Extractions::Extractions(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock,
                         metrics::Registry& metrics)
    : loop_(loop),
      clock_(clock),
      metrics_(metrics),
      backend_extracts_(backend.memories() && backend.extraction_cursor()),
      workers_(
          backend, clock, extract_worker_kind(),
          [this](const ExtractJob& job, JobContext& context) { return run_extract_job(job, context, links_); },
          [this](ExtractOutcome&& outcome) { finished_.post(std::move(outcome)); }) {}

Extractions::~Extractions() {
    shutdown();
}

void Extractions::start(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    config_ = config;
    finished_.open(loop_, [this](std::vector<ExtractOutcome>&& finished) { drain_finished(std::move(finished)); });
    // Idle workers cost a thread each; their Lua state is made at their first job.
    size_t workers = config->summary.workers;
    workers_.start(workers, std::move(scripts), std::move(config));
}

void Extractions::update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    config_ = config;
    workers_.update(std::move(scripts), std::move(config));
}

void Extractions::after_append(const core::SessionRef& ref, int64_t events, int64_t tokens) {
    if (!finished_.is_open()) return;
    const config::MemoryConfig& memory = config_->memory_for(ref.app);
    if (memory.capture != config::MemoryConfig::Capture::Extract) return;
    if (!backend_extracts_) {
        if (!refusal_logged_)
            log::error(
                "memory.capture is extract for app {}, but the storage plugin keeps no extraction cursor; "
                "nothing is extracted (restart with capture: events or none)",
                ref.app);
        refusal_logged_ = true;
        return;
    }
    int64_t now = clock_.now_us();
    std::string key = session_key(ref);
    TriggerStats stats = tracker_.record(key, events, tokens, now);
    if (!trigger_met(memory.extract_trigger, stats)) return;
    tracker_.fired(key, now);
    auto running = busy_.find(key);
    if (running != busy_.end()) {
        running->second = true;
        return;
    }
    enqueue(ref, key);
}

void Extractions::enqueue(const core::SessionRef& ref, const std::string& key) {
    if (!workers_.push(ExtractJob{ref}, config_->memory.queue_size)) {
        metrics_.add_extract_queue_full();
        log::warn(
            "extraction queue full (memory.queue_size {}): extraction of session {}/{}/{} waits for its next "
            "trigger",
            config_->memory.queue_size, ref.app, ref.user, ref.id);
        return;
    }
    busy_.emplace(key, false);
    metrics_.set_extract_queue_depth(static_cast<int64_t>(workers_.depth()));
}

void Extractions::drain_finished(std::vector<ExtractOutcome>&& finished) {
    for (auto& outcome : finished) {
        std::string key = session_key(outcome.ref);
        auto found = busy_.find(key);
        bool again = outcome.more || (found != busy_.end() && found->second);
        if (found != busy_.end()) busy_.erase(found);
        if (outcome.error || outcome.events > 0)
            metrics_.add_extraction(outcome.error.has_value(), outcome.written, outcome.skipped);
        if (again && finished_.is_open()) enqueue(outcome.ref, key);
    }
    metrics_.set_extract_queue_depth(static_cast<int64_t>(workers_.depth()));
}

void Extractions::shutdown() {
    if (!finished_.is_open()) return;
    workers_.stop();
    finished_.close();
}

}  // namespace mnemo::scripting
