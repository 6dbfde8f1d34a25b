#include "scripting/summaries.h"

namespace mnemo::scripting {

Summaries::Summaries(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock,
                     metrics::Registry& metrics)
    : loop_(loop),
      metrics_(metrics),
      workers_(backend, clock, summary_worker_kind(), run_summary_job,
               [this](SummaryOutcome&& o) { finished_.post(std::move(o)); }) {}

Summaries::~Summaries() {
    shutdown();
}

void Summaries::start(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    config_ = config;
    finished_.open(loop_, [this](std::vector<SummaryOutcome>&& finished) { drain_finished(std::move(finished)); });
    size_t workers = config->summary.workers;
    workers_.start(workers, std::move(scripts), std::move(config));
}

void Summaries::update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    config_ = config;
    workers_.update(std::move(scripts), std::move(config));
}

bool Summaries::enqueue(SummaryJob job, Done done) {
    if (!finished_.is_open()) return false;
    if (done) job.ticket = next_ticket_++;
    uint64_t ticket = job.ticket;
    if (!workers_.push(std::move(job), config_->summary.queue_size)) return false;
    if (done) waiting_.emplace(ticket, std::move(done));
    metrics_.set_summary_queue_depth(static_cast<int64_t>(workers_.depth()));
    return true;
}

void Summaries::drain_finished(std::vector<SummaryOutcome>&& finished) {
    metrics_.set_summary_queue_depth(static_cast<int64_t>(workers_.depth()));
    for (auto& outcome : finished) {
        auto it = waiting_.find(outcome.ticket);
        if (it == waiting_.end()) continue;
        Done done = std::move(it->second);
        waiting_.erase(it);
        done(std::move(outcome));
    }
}

void Summaries::shutdown() {
    if (!finished_.is_open()) return;
    workers_.stop();
    waiting_.clear();
    finished_.close();
}

}  // namespace mnemo::scripting
