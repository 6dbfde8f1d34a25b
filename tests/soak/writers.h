/*
 * writers.h -- the soak's load: writer threads appending batches with client
 * ids to their own sessions, and the gate that lets the soak hold them.
 *
 * Each writer owns its sessions and sends one batch at a time on a keep-alive
 * connection to the daemon's current port; a batch that gets no answer (the
 * daemon was killed) or a 503/429 is sent again, byte for byte, until it is
 * acknowledged: the retry the client ids make safe. The gate is closed while
 * the daemon restarts and the audit reads, and tells the writers the new port.
 */
#pragma once

#include "ledger.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mnemo::soak {

class Gate {
public:
    // Lets the writers in, towards the daemon on this port.
    void open(int port);
    // Holds new sends and waits until every send in flight has its answer or its failure.
    void close();
    // Ends the writers: enter() returns false from now on.
    void finish();
    // A writer's turn: blocks while closed; false once finished. *port: where to send.
    bool enter(int* port);
    void leave();

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool open_ = false;
    bool finished_ = false;
    int busy_ = 0;
    int port_ = 0;
};

struct WriterOptions {
    int sessions = 3;
    int max_events = 6;  // per batch, at least 1
    int max_text = 400;  // bytes of content text, at least 32
    uint32_t seed = 1;
};

// The sessions writer w appends to.
std::vector<std::string> writer_sessions(int writer, int sessions);

class Writers {
public:
    Writers(int count, WriterOptions options, Gate& gate, Ledger& ledger);
    ~Writers();  // finishes the gate and joins
    Writers(const Writers&) = delete;
    Writers& operator=(const Writers&) = delete;

    // Acknowledged batches per writer, to see that every writer makes progress.
    std::vector<int64_t> progress() const;
    std::vector<std::string> sessions() const;
    void join();

private:
    void run(int writer);

    WriterOptions options_;
    Gate& gate_;
    Ledger& ledger_;
    std::vector<std::atomic<int64_t>> progress_;
    std::vector<std::thread> threads_;
};

}  // namespace mnemo::soak
