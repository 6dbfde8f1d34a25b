// The defaults match CONFIG.md, and the shipped example is exactly them.
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using testing::kBaseDir;
using testing::valid;

constexpr int64_t kSecond = 1000000;

TEST(Defaults, ServerAuthStorageMatchConfigMd) {
    auto config = valid("");
    ASSERT_EQ(config->server.listen.size(), 1u);
    EXPECT_EQ(config->server.listen[0].text, "127.0.0.1:7420");
    EXPECT_EQ(config->server.listen[0].host, "127.0.0.1");
    EXPECT_EQ(config->server.listen[0].port, 7420);
    EXPECT_TRUE(config->server.listen[0].loopback);
    EXPECT_EQ(config->server.admin_socket, "/srv/mnemo/run/admin.sock");
    EXPECT_EQ(config->server.admin_socket_mode, 0600u);
    EXPECT_EQ(config->server.admin_group, "");
    EXPECT_EQ(config->server.max_body_bytes, 4u << 20);
    EXPECT_EQ(config->server.max_connections, 10000u);
    EXPECT_EQ(config->server.idle_timeout_us, 60 * kSecond);
    EXPECT_EQ(config->server.request_timeout_us, 30 * kSecond);
    EXPECT_EQ(config->server.output_limit, 4u << 20);
    EXPECT_EQ(config->server.send_timeout_us, 60 * kSecond);
    EXPECT_EQ(config->server.drain_timeout_us, 10 * kSecond);
    EXPECT_EQ(config->server.ui, ServerConfig::Ui::Auto);
    EXPECT_EQ(config->auth.required, AuthConfig::Required::Auto);
    EXPECT_TRUE(config->auth.admin_tokens.empty());
    EXPECT_FALSE(config->auth.allow_insecure);
    EXPECT_EQ(config->storage.plugin, "sqlite");
    EXPECT_EQ(config->storage.plugin_dir, "");
    EXPECT_TRUE(config->storage.soft_delete);
    EXPECT_EQ(config->storage.options_json,
              R"({"path":"/srv/mnemo/data/mnemo.db","synchronous":"normal","busy_timeout_ms":5000,)"
              R"("cache_size_bytes":67108864,"readers":4})");
}

TEST(Defaults, LimitsTtlSweepRecoveryMatchConfigMd) {
    auto config = valid("");
    EXPECT_EQ(config->limits.event_limit, 1000);
    EXPECT_EQ(config->limits.max_event_bytes, 256u << 10);
    EXPECT_EQ(config->limits.max_batch_events, 256u);
    EXPECT_EQ(config->limits.max_state_bytes, 1u << 20);
    EXPECT_EQ(config->ttl.session_us, 0);
    EXPECT_EQ(config->ttl.app_state_us, 0);
    EXPECT_EQ(config->ttl.user_state_us, 0);
    EXPECT_EQ(config->sweep.interval_us, 60 * kSecond);
    EXPECT_EQ(config->sweep.budget_us, 5000);
    EXPECT_EQ(config->sweep.batch, 1000u);
    EXPECT_EQ(config->sweep.purge_after_us, 7 * 86400 * kSecond);
    EXPECT_EQ(config->sweep.prune_lanes_after_us, 0);
    EXPECT_EQ(config->sweep.finalize_retries, 3u);
    EXPECT_EQ(config->recovery.resume_window_us, 120 * kSecond);
    EXPECT_EQ(config->recovery.stuck_after_restarts, 3u);
}

TEST(Defaults, ResetSummaryScriptsLogMatchConfigMd) {
    auto config = valid("");
    EXPECT_EQ(config->reset.timezone, "local");
    EXPECT_EQ(config->reset.default_policy.mode, ResetPolicy::Mode::Both);
    EXPECT_EQ(config->reset.default_policy.at_hour, 4);
    EXPECT_EQ(config->reset.default_policy.idle_minutes, 1440);
    EXPECT_TRUE(config->reset.default_policy.notify);
    EXPECT_TRUE(config->reset.overrides.empty());
    EXPECT_TRUE(config->summary.enabled);
    EXPECT_TRUE(config->summary.trigger.any);
    EXPECT_EQ(config->summary.trigger.events, 20);
    EXPECT_EQ(config->summary.trigger.tokens, 4000);
    EXPECT_FALSE(config->summary.trigger.idle_us.has_value());
    EXPECT_EQ(config->summary.workers, 2u);
    EXPECT_EQ(config->summary.queue_size, 100u);
    EXPECT_EQ(config->summary.summarizer, SummaryConfig::Summarizer::Lua);
    EXPECT_TRUE(config->summary.command.empty());
    EXPECT_EQ(config->summary.timeout_us, 30 * kSecond);
    EXPECT_EQ(config->summary.max_words, 200u);
    EXPECT_EQ(config->scripts.instruction_limit, 1000000);
    EXPECT_EQ(config->scripts.memory_limit, 64u << 20);
    EXPECT_EQ(config->scripts.timeout_us, 100000);
    EXPECT_TRUE(config->apps.empty());
    EXPECT_EQ(config->log.level, "info");
    EXPECT_EQ(config->log.format, LogConfig::Format::Text);
}

TEST(Defaults, ShippedExampleLoadsAndEqualsTheDefaults) {
    std::string example = std::string(MNEMO_SOURCE_DIR) + "/config/mnemod.yaml";
    LoadResult loaded = load_file(example);
    ASSERT_TRUE(loaded.errors.empty()) << loaded.errors.front();
    std::string folder = std::string(MNEMO_SOURCE_DIR) + "/config";
    LoadResult defaults = load_string("", "defaults", folder);
    ASSERT_TRUE(defaults.errors.empty());
    EXPECT_EQ(loaded.config->value_json(""), defaults.config->value_json(""));
    EXPECT_EQ(loaded.config->source_path, example);
    EXPECT_EQ(loaded.config->base_dir, folder);
}

TEST(Defaults, ZeroConfigUsesTheWorkingDirectory) {
    LoadResult result = load_zero_config("/var/lib/mnemo");
    ASSERT_TRUE(result.errors.empty());
    EXPECT_EQ(result.config->source_path, "");
    EXPECT_EQ(result.config->base_dir, "/var/lib/mnemo");
    EXPECT_EQ(result.config->server.admin_socket, "/var/lib/mnemo/run/admin.sock");
    EXPECT_EQ(result.config->value_json("storage.options.path"), "\"/var/lib/mnemo/data/mnemo.db\"");
    EXPECT_EQ(result.config->value_json("storage.plugin"), "\"sqlite\"");
}

}  // namespace
}  // namespace mnemo::config
