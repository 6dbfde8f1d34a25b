#include "ledger.h"

namespace mnemo::soak {

std::string event_id(const std::string& tag, size_t index) {
    return tag + "-e" + std::to_string(index);
}

std::string event_text(const std::string& tag, size_t index, size_t length) {
    std::string text = event_id(tag, index) + ":";
    size_t hash = std::hash<std::string>{}(text);
    for (size_t i = 0; text.size() < length; ++i) text += static_cast<char>('a' + (hash + i * 7) % 26);
    return text;
}

std::string batch_body(const Batch& batch) {
    std::string body = R"({"create_if_missing":true,"events":[)";
    for (size_t i = 0; i < batch.text_lengths.size(); ++i) {
        if (i > 0) body += ',';
        body += R"({"id":")" + event_id(batch.tag, i) + R"(","author":"user","content":{"text":")" +
                event_text(batch.tag, i, batch.text_lengths[i]) + R"("}})";
    }
    return body + "]}";
}

size_t Ledger::add(Batch batch) {
    std::lock_guard lock(mutex_);
    batches_.push_back(std::move(batch));
    return batches_.size() - 1;
}

void Ledger::sent(size_t index) {
    std::lock_guard lock(mutex_);
    Batch& batch = batches_[index];
    if (batch.sends > 0 && batch.known != Known::Acknowledged) ++tally_.resent;
    ++batch.sends;
    if (batch.known == Known::Unsent) batch.known = Known::InDoubt;
}

void Ledger::acknowledged(size_t index, std::vector<int64_t> seqs) {
    std::lock_guard lock(mutex_);
    Batch& batch = batches_[index];
    // An audit may have found it stored while in doubt: the answer to its retry must name the same seqs.
    if (!batch.seqs.empty() && batch.seqs != seqs)
        unexpected_.push_back(batch.tag + ": retry acknowledged other seqs than the ones stored");
    batch.known = Known::Acknowledged;
    batch.seqs = std::move(seqs);
    ++tally_.acknowledged_batches;
    tally_.acknowledged_events += static_cast<int64_t>(batch.text_lengths.size());
}

void Ledger::refused() {
    std::lock_guard lock(mutex_);
    ++tally_.refused;
}

void Ledger::unanswered() {
    std::lock_guard lock(mutex_);
    ++tally_.unanswered;
}

void Ledger::unexpected(const std::string& what) {
    std::lock_guard lock(mutex_);
    unexpected_.push_back(what);
}

Tally Ledger::tally() const {
    std::lock_guard lock(mutex_);
    return tally_;
}

std::vector<std::string> Ledger::unexpected_answers() const {
    std::lock_guard lock(mutex_);
    return unexpected_;
}

int64_t Ledger::acknowledged_batches() const {
    std::lock_guard lock(mutex_);
    return tally_.acknowledged_batches;
}

}  // namespace mnemo::soak
