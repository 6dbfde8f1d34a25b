#include "net/responder_table.h"

#include <vector>

#include "net/connection.h"

namespace mnemo::net {

namespace {

struct Entry {
    Connection* connection = nullptr;
    uint32_t generation = 0;
};

struct Table {
    std::vector<Entry> entries;
    std::vector<uint32_t> free_indexes;
};

Table& table() {
    thread_local Table instance;
    return instance;
}

void deliver(ResponderKey key, uint64_t seq, Response&& response) {
    Table& t = table();
    if (key.index >= t.entries.size()) return;
    Entry& entry = t.entries[key.index];
    if (entry.generation != key.generation || !entry.connection) return;
    entry.connection->complete(seq, std::move(response));
}

}  // namespace

ResponderKey register_connection(Connection& connection) {
    Table& t = table();
    if (t.free_indexes.empty()) {
        t.entries.emplace_back();
        t.free_indexes.push_back(static_cast<uint32_t>(t.entries.size() - 1));
    }
    uint32_t index = t.free_indexes.back();
    t.free_indexes.pop_back();
    t.entries[index].connection = &connection;
    return {index, t.entries[index].generation};
}

void unregister_connection(ResponderKey key) {
    Table& t = table();
    Entry& entry = t.entries[key.index];
    if (entry.generation != key.generation || !entry.connection) return;
    entry.connection = nullptr;
    ++entry.generation;
    t.free_indexes.push_back(key.index);
}

Responder make_responder(ResponderKey key, uint64_t seq) {
    return [key, seq](Response&& response) { deliver(key, seq, std::move(response)); };
}

}  // namespace mnemo::net
