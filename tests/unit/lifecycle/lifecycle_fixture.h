// A real storage plugin, a loop, a ManualClock and a Sweeper, for lifecycle tests without sockets.
#pragma once

#include "config/config.h"
#include "core/clock.h"
#include "core/finalize_inbox.h"
#include "core/lanes.h"
#include "core/service.h"
#include "lifecycle/finalize_callbacks.h"
#include "lifecycle/sweeper.h"
#include "observability/metrics.h"
#include "storage/backend.h"

#include <gtest/gtest.h>
#include <uv.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mnemo::lifecycle {

constexpr int64_t kSecond = 1'000'000;

struct FinalizeCall {
    std::string id;
    core::FinalizeReason reason;
};

class LifecycleTest : public ::testing::TestWithParam<std::string> {
protected:
    LifecycleTest();
    ~LifecycleTest() override;

    // (Re)opens the backend in the same data folder with this config text merged in.
    void open(const std::string& extra_yaml);
    void close();
    core::Env env() { return core::Env{*backend_, config_, clock_, &inbox_}; }

    // Runs one whole sweep (steps and finalize pass) to its end.
    void sweep();
    void create(const std::string& id, const std::string& user = "u1", std::optional<int64_t> ttl_seconds = {});
    bool readable(const std::string& id, const std::string& user = "u1");
    std::string resolve(const std::string& lane, const std::string& user = "u1");  // the session id
    core::Outcome lane(const std::string& lane);
    uint64_t swept(const std::string& kind) const;  // from the metrics text
    int calls_for(const std::string& id) const;

    std::string storage_yaml();  // the storage section's plugin and options lines
    // Set before open(): changes a copy of the plugin's operation table the backend then uses
    // (counting wrappers, a table without the later appended operations).
    std::function<void(mnemo_storage_ops&)> ops_tweak_;
    uint32_t added_capabilities_ = 0;  // set before open(): declared by the plugin's descriptor too
    mnemo_storage_ops tweaked_ops_{};
    mnemo_plugin tweaked_descriptor_{};
    std::string dir_;
    std::string database_;  // mysql: this test's database, created at the first open
    uv_loop_t loop_{};
    core::ManualClock clock_{1'790'000'000 * kSecond};
    metrics::Registry metrics_;
    core::FinalizeInbox inbox_;
    FinalizeCallbacks callbacks_;
    std::vector<FinalizeCall> calls_;
    bool hook_ok_ = true;
    std::chrono::microseconds hook_delay_{0};  // each finalize call takes this long (a slow hook)
    std::shared_ptr<const config::Config> config_;
    std::unique_ptr<storage::Backend> backend_;
    std::unique_ptr<Sweeper> sweeper_;
};

// The persistent plugins built here: sqlite, and mysql when it is built.
std::vector<std::string> persistent_backends();

// A JSON string field of an Outcome body, "" when absent.
std::string field(const std::string& json, const char* pointer);
bool flag(const std::string& json, const char* pointer);
int64_t number(const std::string& json, const char* pointer);  // -1 when absent

}  // namespace mnemo::lifecycle
