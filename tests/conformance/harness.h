// The conformance harness: one in-process mnemod API (router, handlers,
// core, a real storage plugin) driven by HTTP-shaped calls, without
// sockets. Every backend runs the same suite through it.
#pragma once

#include "api/api.h"
#include "config/config.h"
#include "core/clock.h"
#include "core/service.h"
#include "memory/memory_index.h"
#include "memory/memory_service.h"
#include "observability/metrics.h"
#include "storage/backend.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

namespace mnemo::testing {

// Backend times are Unix microseconds.
inline constexpr int64_t kSecond = 1'000'000;

struct Reply {
    int status = 0;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;

    // Parsed body; fails the test when it is not JSON.
    simdjson::dom::element json() const;
    int64_t integer(std::string_view pointer) const;
    std::string string(std::string_view pointer) const;
    bool boolean(std::string_view pointer) const;
    bool is_null(std::string_view pointer) const;
    bool has(std::string_view pointer) const;
    size_t size(std::string_view pointer) const;      // array length
    std::string raw(std::string_view pointer) const;  // minified JSON of the value
    // An object with its top-level keys sorted (values minified): for state
    // objects, whose key order docs/api.md leaves open.
    std::string object(std::string_view pointer) const;
    std::string error_code() const { return string("/error/code"); }
    // A response header's value, "" when absent (name compared case-insensitively).
    std::string header(std::string_view name) const;

private:
    mutable std::shared_ptr<simdjson::dom::parser> parser_;
    mutable simdjson::dom::element root_;
    mutable bool parsed_ = false;
};

class Harness {
public:
    // `backend`: plugin name; `extra_yaml`: config text merged under the defaults.
    Harness(const std::string& backend, const std::string& extra_yaml = "");
    ~Harness();

    Reply call(const std::string& method, const std::string& path, const std::string& body = "",
               std::vector<std::pair<std::string, std::string>> headers = {});
    Reply get(const std::string& path) { return call("GET", path); }
    Reply post(const std::string& path, const std::string& body) { return call("POST", path, body); }
    Reply put(const std::string& path, const std::string& body) { return call("PUT", path, body); }
    Reply patch(const std::string& path, const std::string& body) { return call("PATCH", path, body); }
    Reply del(const std::string& path) { return call("DELETE", path); }

    core::ManualClock& clock() { return clock_; }
    // The backend keeps memories (all thirteen memory ops); then the harness
    // owns a MemoryIndex as the daemon does and hands it to the Api.
    bool has_memories() const { return index_ != nullptr; }
    // The hooks the daemon connects to its embedding pipeline, set by a test instead.
    void set_query_embedder(memory::QueryEmbedder embedder) { memory_links_.embed_query = std::move(embedder); }
    void set_pending_written(std::function<void()> hook) { memory_links_.pending_written = std::move(hook); }
    // What core operations outside the API see (export/import): this
    // harness's backend, config and clock.
    core::Env env() const { return core::Env{*backend_, config_, clock_}; }

private:
    uv_loop_t loop_{};
    std::string data_dir_;
    core::ManualClock clock_;
    metrics::Registry metrics_;
    std::shared_ptr<const config::Config> config_;
    std::unique_ptr<storage::Backend> backend_;
    std::unique_ptr<memory::MemoryIndex> index_;
    memory::MemoryLinks memory_links_;
    std::unique_ptr<api::Api> api_;
};

// What "nothing changed" compares after a rejected request.
struct SessionSnapshot {
    int64_t version = -1;
    int64_t event_count = -1;
    std::string state;  // minified merged state
    std::string usage;  // minified usage
};

// The base of every parameterised conformance test: GetParam() is the backend.
class Conformance : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override { h = std::make_unique<Harness>(GetParam()); }
    // Restarts the API with `extra_yaml` merged into the config (fresh data).
    void reconfigure(const std::string& extra_yaml) {
        h.reset();
        h = std::make_unique<Harness>(GetParam(), extra_yaml);
    }
    std::unique_ptr<Harness> h;

    static std::string sessions(const std::string& app = "shop", const std::string& user = "u1") {
        return "/v1/apps/" + app + "/users/" + user + "/sessions";
    }
    static std::string session(const std::string& id, const std::string& app = "shop", const std::string& user = "u1") {
        return sessions(app, user) + "/" + id;
    }
    // Creates session `id` and checks the 201.
    void create(const std::string& id, const std::string& body_extra = "");
    // Appends a batch and checks the 200; returns the reply.
    Reply append(const std::string& id, const std::string& events_json, const std::string& extra = "");
    // Appends one event {"author":"user","content":{"text": text}} (and an id when given).
    Reply say(const std::string& id, const std::string& text, const std::string& author = "user");
    SessionSnapshot snapshot(const std::string& id, const std::string& app = "shop", const std::string& user = "u1");
    // Checks that `id` still answers with `before`'s version, event_count, state and usage.
    void expect_unchanged(const std::string& id, const SessionSnapshot& before);
};

// `json` (an object) with top-level keys sorted, as Reply::object gives it.
std::string canonical(std::string_view json);

// Checks status, error.code, a non-empty error.message and an object error.details.
void expect_error(const Reply& reply, int status, const std::string& code);

std::vector<std::string> backends_under_test();
// The backends an export of `backend` is carried into by the transfer tests:
// memory and sqlite, and the other backends under test (mysql, postgres:
// MNEMO_CONFORMANCE_BACKENDS=mysql,postgres carries data between all four).
std::vector<std::string> transfer_partners(const std::string& backend);

}  // namespace mnemo::testing
