/*
 * audit.h -- compares what the daemon stores with what the writers were told.
 *
 * Owns the soak's checks, run with the writers held: every acknowledged
 * batch stored once with exactly its acknowledged seqs (else lost), no event
 * id twice (else duplicated), every batch all or none (else partial), seqs
 * strictly increasing and event_count equal to the readable events in every
 * session, each event's content the bytes its writer sent, nothing stored
 * that was never sent. A batch in doubt that is found stored whole is held
 * to those seqs from then on. Problems found by any audit are kept, by id,
 * so the report counts each once.
 */
#pragma once

#include "ledger.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mnemo::soak {

class Auditor {
public:
    // Reads every session from the daemon on port; returns the problems this audit found.
    std::vector<std::string> run(int port, const std::vector<std::string>& sessions, Ledger& ledger);

    int64_t audits() const { return audits_; }
    size_t lost() const { return lost_.size(); }              // acknowledged batches not found as acknowledged
    size_t duplicated() const { return duplicated_.size(); }  // event ids stored more than once
    size_t partial() const { return partial_.size(); }        // batches stored in part
    int64_t in_doubt_found_stored() const { return in_doubt_stored_; }

private:
    int64_t audits_ = 0;
    std::set<std::string> lost_, duplicated_, partial_;
    int64_t in_doubt_stored_ = 0;
};

}  // namespace mnemo::soak
