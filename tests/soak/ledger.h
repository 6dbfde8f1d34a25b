/*
 * ledger.h -- what the soak's writers were told, batch by batch.
 *
 * Owns every batch a writer made (its session, its events' client ids and
 * content lengths), what the client knows of it (not yet sent, sent without
 * an answer, acknowledged with seqs) and the counts the report prints. The
 * writers record into it while they run; the audit reads it only while the
 * writers are held at the gate.
 */
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mnemo::soak {

enum class Known {
    Unsent,        // never on the wire: must not be stored
    InDoubt,       // sent, no answer yet (the daemon died or the answer was refused): all of it or none
    Acknowledged,  // 200: stored for good with exactly `seqs`
};

struct Batch {
    std::string tag;  // w<writer>-b<n>; event i has client id <tag>-e<i>
    std::string session;
    std::vector<uint16_t> text_lengths;  // one per event
    Known known = Known::Unsent;
    std::vector<int64_t> seqs;  // acknowledged, or found stored whole while in doubt (then held to them)
    int sends = 0;
};

// The content text of event i of a batch: its id, then filler derived from the id, so an audit can
// tell a stored event's bytes from another's without keeping every text.
std::string event_text(const std::string& tag, size_t index, size_t length);
std::string event_id(const std::string& tag, size_t index);
// The append request body of a batch (client ids, create_if_missing).
std::string batch_body(const Batch& batch);

struct Tally {
    int64_t acknowledged_batches = 0;
    int64_t acknowledged_events = 0;
    int64_t resent = 0;      // sends of a batch already sent without being acknowledged
    int64_t refused = 0;     // 503/429 answers, each retried
    int64_t unanswered = 0;  // sends that got no answer (the daemon died under them)
};

class Ledger {
public:
    // A writer's new batch; returns its index for the calls below.
    size_t add(Batch batch);
    void sent(size_t index);
    void acknowledged(size_t index, std::vector<int64_t> seqs);
    void refused();
    void unanswered();
    void unexpected(const std::string& what);

    Tally tally() const;
    std::vector<std::string> unexpected_answers() const;
    int64_t acknowledged_batches() const;
    // Only while every writer is held at the gate (or stopped).
    std::vector<Batch>& batches() { return batches_; }

private:
    mutable std::mutex mutex_;
    std::vector<Batch> batches_;
    std::vector<std::string> unexpected_;
    Tally tally_;
};

}  // namespace mnemo::soak
