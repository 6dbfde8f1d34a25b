#include "audit.h"

#include "fixture.h"
#include "stored_events.h"

#include <map>
#include <unordered_map>

namespace mnemo::soak {
namespace {

struct Found {
    std::string session;
    std::vector<int64_t> seqs;    // in stored order
    std::vector<size_t> indexes;  // the event index of each
};

std::string join(const std::vector<int64_t>& seqs) {
    std::string text = "[";
    for (int64_t seq : seqs) text += (text.size() > 1 ? "," : "") + std::to_string(seq);
    return text + "]";
}

bool consecutive(const std::vector<int64_t>& seqs) {
    for (size_t i = 1; i < seqs.size(); ++i)
        if (seqs[i] != seqs[i - 1] + 1) return false;
    return true;
}

// "w3-b17-e2" -> tag "w3-b17", index 2; false when the id is not one a writer makes.
bool split_id(const std::string& id, std::string* tag, size_t* index) {
    auto at = id.rfind("-e");
    if (at == std::string::npos || at + 2 >= id.size()) return false;
    *tag = id.substr(0, at);
    *index = std::stoul(id.substr(at + 2));
    return true;
}

}  // namespace

std::vector<std::string> Auditor::run(int port, const std::vector<std::string>& sessions, Ledger& ledger) {
    ++audits_;
    std::vector<std::string> problems;
    std::vector<Batch>& batches = ledger.batches();
    std::unordered_map<std::string, size_t> by_tag;
    for (size_t i = 0; i < batches.size(); ++i) by_tag.emplace(batches[i].tag, i);

    std::map<size_t, Found> found;  // batch index -> what is stored of it
    for (const std::string& session : sessions) {
        // A session whose first batches all died unanswered may not exist yet; then every batch
        // sent to it must be absent, which the batch checks below hold it to.
        auto head = integration::http_once(port, "GET", integration::session_path(session) + "?num_recent_events=1");
        if (head && head->status == 404) continue;
        auto count =
            head && head->status == 200 ? integration::json_int(head->body, "/session/event_count") : std::nullopt;
        if (!count) {
            problems.push_back(session + ": GET answered " +
                               (head ? std::to_string(head->status) + " " + head->body.substr(0, 200) : "nothing"));
            continue;
        }
        std::string error;
        std::vector<integration::StoredEvent> events = integration::read_events(port, session, &error);
        if (!error.empty()) {
            problems.push_back(error);
            continue;
        }
        std::set<std::string> ids;
        int64_t previous = 0;
        for (const auto& event : events) {
            if (!ids.insert(event.id).second) {
                duplicated_.insert(session + "/" + event.id);
                problems.push_back(session + ": event " + event.id + " stored twice");
            }
            if (event.seq <= previous)
                problems.push_back(session + ": seq " + std::to_string(event.seq) + " after " +
                                   std::to_string(previous));
            previous = event.seq;
            std::string tag;
            size_t index = 0;
            auto batch = split_id(event.id, &tag, &index) ? by_tag.find(tag) : by_tag.end();
            if (batch == by_tag.end() || index >= batches[batch->second].text_lengths.size()) {
                problems.push_back(session + ": event " + event.id + " was never sent");
                continue;
            }
            const Batch& sent = batches[batch->second];
            if (sent.session != session)
                problems.push_back(event.id + ": stored in " + session + ", sent to " + sent.session);
            if (event.text != event_text(tag, index, sent.text_lengths[index]))
                problems.push_back(session + ": event " + event.id + " content differs from what was sent");
            Found& of = found[batch->second];
            of.session = session;
            of.seqs.push_back(event.seq);
            of.indexes.push_back(index);
        }
        if (*count != static_cast<int64_t>(events.size()))
            problems.push_back(session + ": event_count " + std::to_string(count.value_or(-1)) + " but " +
                               std::to_string(events.size()) + " events readable");
    }

    for (size_t i = 0; i < batches.size(); ++i) {
        Batch& batch = batches[i];
        auto it = found.find(i);
        std::vector<int64_t> seqs = it == found.end() ? std::vector<int64_t>{} : it->second.seqs;
        bool whole = seqs.size() == batch.text_lengths.size() && consecutive(seqs);
        if (!seqs.empty() && !whole) {
            partial_.insert(batch.tag);
            problems.push_back(batch.tag + ": " + std::to_string(batch.text_lengths.size()) +
                               " events sent, stored as " + join(seqs));
        }
        switch (batch.known) {
            case Known::Unsent:
                if (!seqs.empty()) problems.push_back(batch.tag + ": never sent but stored as " + join(seqs));
                break;
            case Known::InDoubt:
                if (!batch.seqs.empty() && seqs != batch.seqs) {
                    lost_.insert(batch.tag);
                    problems.push_back(batch.tag + ": found stored as " + join(batch.seqs) +
                                       " by an earlier audit, now " + join(seqs));
                } else if (batch.seqs.empty() && whole) {
                    batch.seqs = seqs;
                    ++in_doubt_stored_;
                }
                break;
            case Known::Acknowledged:
                if (seqs != batch.seqs) {
                    lost_.insert(batch.tag);
                    problems.push_back(batch.tag + ": acknowledged with seqs " + join(batch.seqs) + ", stored as " +
                                       join(seqs));
                }
                break;
        }
    }
    return problems;
}

}  // namespace mnemo::soak
