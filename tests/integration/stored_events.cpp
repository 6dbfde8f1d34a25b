#include "stored_events.h"

#include "fixture.h"

#include <simdjson.h>

namespace mnemo::integration {
namespace {

constexpr int kPageSize = 1000;

// Appends one page of events to *out; returns next_after_seq, or nullopt at the end.
std::optional<int64_t> read_page(const std::string& body, std::vector<StoredEvent>* out, std::string* error) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    simdjson::dom::array events;
    if (parser.parse(body).get(root) != simdjson::SUCCESS ||
        root["events"].get_array().get(events) != simdjson::SUCCESS) {
        *error = "unreadable events page: " + body.substr(0, 200);
        return std::nullopt;
    }
    for (simdjson::dom::element event : events) {
        StoredEvent stored;
        std::string_view id;
        if (event["id"].get_string().get(id) != simdjson::SUCCESS ||
            event["seq"].get_int64().get(stored.seq) != simdjson::SUCCESS)
            *error = "event without id or seq in " + body.substr(0, 200);
        stored.id = std::string(id);
        std::string_view text;
        if (event["content"]["text"].get_string().get(text) == simdjson::SUCCESS) stored.text = std::string(text);
        out->push_back(std::move(stored));
    }
    int64_t next = 0;
    if (events.size() == 0 || root["next_after_seq"].get_int64().get(next) != simdjson::SUCCESS) return std::nullopt;
    return next;
}

}  // namespace

std::string events_path(const std::string& session) {
    return session_path(session) + "/events";
}

std::vector<StoredEvent> read_events(int port, const std::string& session, std::string* error) {
    std::vector<StoredEvent> events;
    auto connection = HttpConnection::tcp(port);
    std::optional<int64_t> after = 0;
    while (after && error->empty()) {
        auto page = connection.request("GET", events_path(session) + "?after_seq=" + std::to_string(*after) +
                                                  "&limit=" + std::to_string(kPageSize));
        if (!page || page->status != 200) {
            *error = "reading " + session + " after_seq " + std::to_string(*after) + ": " +
                     (page ? std::to_string(page->status) + " " + page->body : std::string("no answer"));
            break;
        }
        after = read_page(page->body, &events, error);
    }
    return events;
}

std::optional<int64_t> event_count(int port, const std::string& session) {
    auto response = http_once(port, "GET", session_path(session) + "?num_recent_events=1");
    if (!response || response->status != 200) return std::nullopt;
    return json_int(response->body, "/session/event_count");
}

std::vector<int64_t> appended_seqs(const std::string& body) {
    simdjson::dom::parser parser;
    simdjson::dom::array appended;
    std::vector<int64_t> seqs;
    if (parser.parse(body)["appended"].get_array().get(appended) != simdjson::SUCCESS) return seqs;
    for (simdjson::dom::element item : appended) {
        int64_t seq = 0;
        if (item["seq"].get_int64().get(seq) == simdjson::SUCCESS) seqs.push_back(seq);
    }
    return seqs;
}

}  // namespace mnemo::integration
