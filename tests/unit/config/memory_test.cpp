// The memory: section, its embedder map, apps.<app>.memory overrides and
// what a reload may change in them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using ::testing::ElementsAre;
using testing::errors_of;
using ::testing::IsEmpty;
using testing::plan;
using testing::valid;

constexpr const char* kHttpEmbedder =
    "memory:\n  embedder: {kind: http, url: \"http://127.0.0.1:11434/v1\", model: m}\n";

TEST(MemoryConfig, DefaultsAreTheDocumentedOnes) {
    auto config = valid("");
    const MemoryConfig& memory = config->memory;
    EXPECT_EQ(memory.dimensions, 0u);
    EXPECT_EQ(memory.max_text_bytes, 8192u);
    EXPECT_EQ(memory.ttl_us, 0);
    EXPECT_EQ(memory.capture, MemoryConfig::Capture::None);
    EXPECT_EQ(memory.capture_roles, (std::vector<std::string>{"user", "assistant"}));
    EXPECT_EQ(memory.capture_namespace, "events");
    EXPECT_TRUE(memory.extract_trigger.any);
    EXPECT_EQ(memory.extract_trigger.events, 20);
    EXPECT_FALSE(memory.extract_trigger.tokens.has_value());
    EXPECT_EQ(memory.extractor, MemoryConfig::Extractor::Lua);
    EXPECT_TRUE(memory.extract_command.empty());
    EXPECT_EQ(memory.queue_size, 10000u);
    EXPECT_EQ(memory.embedder.kind, EmbedderConfig::Kind::None);
    EXPECT_EQ(memory.embedder.batch, 32u);
    EXPECT_EQ(memory.embedder.workers, 2u);
    EXPECT_EQ(memory.embedder.timeout_us, 10000000);
    EXPECT_EQ(memory.embedder.retries, 3u);
    EXPECT_EQ(config->value_json("memory.extract_trigger"), R"({"any":{"events":20}})");
    EXPECT_EQ(config->value_json("memory.embedder.timeout"), "10");
}

TEST(MemoryConfig, IndexDirIsResolvedLikeStoragePathsAndNeedsARestart) {
    auto defaults = valid("");
    EXPECT_EQ(defaults->memory.index_dir, std::string(testing::kBaseDir) + "/data/memory-index");
    auto relative = valid("memory:\n  index_dir: idx/here\n");
    EXPECT_EQ(relative->memory.index_dir, std::string(testing::kBaseDir) + "/idx/here");
    EXPECT_EQ(relative->value_json("memory.index_dir"), "\"" + std::string(testing::kBaseDir) + "/idx/here\"");
    auto absolute = valid("memory:\n  index_dir: /var/lib/mnemod/index\n");
    EXPECT_EQ(absolute->memory.index_dir, "/var/lib/mnemod/index");
    auto plan = plan_reload(*defaults, *absolute);
    ASSERT_EQ(plan.refused.size(), 1u);
    EXPECT_NE(plan.refused.front().find("memory.index_dir"), std::string::npos) << plan.refused.front();
}

TEST(MemoryConfig, PartialEmbedderMapKeepsTheOtherDefaults) {
    auto config = valid(std::string(kHttpEmbedder) + "  ttl: 90d\n");
    const EmbedderConfig& embedder = config->memory.embedder;
    EXPECT_EQ(embedder.kind, EmbedderConfig::Kind::Http);
    EXPECT_EQ(embedder.url, "http://127.0.0.1:11434/v1");
    EXPECT_EQ(embedder.model, "m");
    EXPECT_EQ(embedder.batch, 32u);
    EXPECT_EQ(embedder.retries, 3u);
    EXPECT_EQ(config->memory.ttl_us, 90LL * 86400 * 1000000);
    EXPECT_EQ(config->memory.capture_namespace, "events");
}

TEST(MemoryConfig, ListsAndTheExtractTriggerAreReplacedWhole) {
    auto config = valid("memory:\n  capture_roles: [tool]\n  extract_trigger: {all: {tokens: 500, idle: 5m}}\n");
    EXPECT_EQ(config->memory.capture_roles, (std::vector<std::string>{"tool"}));
    EXPECT_FALSE(config->memory.extract_trigger.any);
    EXPECT_FALSE(config->memory.extract_trigger.events.has_value());
    EXPECT_EQ(config->memory.extract_trigger.tokens, 500);
    EXPECT_EQ(config->memory.extract_trigger.idle_us, 300000000);
}

TEST(MemoryConfig, ApiKeyExpandsFromTheEnvironment) {
    ::setenv("MNEMO_TEST_EMBED_KEY", "sk-test", 1);
    auto single = valid(
        "memory:\n  embedder: {kind: http, url: \"http://e/v1\", model: m, api_key: \"${MNEMO_TEST_EMBED_KEY}\"}\n");
    EXPECT_EQ(single->memory.embedder.api_key, "sk-test");
    ::unsetenv("MNEMO_TEST_EMBED_KEY");
    EXPECT_THAT(errors_of("memory:\n  embedder: {api_key: \"${MNEMO_TEST_EMBED_KEY}\"}\n").at(0),
                ::testing::StartsWith("mnemod.yaml:2:23: memory.embedder.api_key: environment variable "
                                      "MNEMO_TEST_EMBED_KEY is not set"));
}

TEST(MemoryConfig, CommandEmbedder) {
    auto config = valid("memory:\n  embedder:\n    kind: command\n    command: [/usr/bin/embed, --fast]\n");
    EXPECT_EQ(config->memory.embedder.kind, EmbedderConfig::Kind::Command);
    EXPECT_EQ(config->memory.embedder.command, (std::vector<std::string>{"/usr/bin/embed", "--fast"}));
}

TEST(MemoryConfig, UnknownKeysAndBadValuesNameTheirPlace) {
    EXPECT_THAT(errors_of("memory:\n  embeder: {}\n"),
                ElementsAre("mnemod.yaml:2:3: memory.embeder: unknown key (did you mean 'embedder'?)"));
    EXPECT_THAT(errors_of("memory:\n  embedder: {kind: grpc}\n"),
                ElementsAre("mnemod.yaml:2:20: memory.embedder.kind: expected one of none, http, command, got "
                            "\"grpc\""));
    EXPECT_THAT(
        errors_of("memory:\n  embedder: {batch: 0, workers: 300}\n"),
        ElementsAre("mnemod.yaml:2:21: memory.embedder.batch: expected a whole number from 1 to 2048, got 0",
                    "mnemod.yaml:2:33: memory.embedder.workers: expected a whole number from 1 to 256, got 300"));
    EXPECT_THAT(errors_of("memory:\n  embedder: {timeout: 0}\n"),
                ElementsAre("mnemod.yaml:2:23: memory.embedder.timeout: must be greater than 0, got \"0\""));
    EXPECT_THAT(errors_of("memory:\n  capture: always\n"),
                ElementsAre("mnemod.yaml:2:12: memory.capture: expected one of none, events, extract, got "
                            "\"always\""));
}

TEST(MemoryConfig, CaptureRolesAndNamespaceAreChecked) {
    EXPECT_THAT(errors_of("memory:\n  capture_roles: [user, bot, user]\n"),
                ElementsAre("mnemod.yaml:2:25: memory.capture_roles[1]: expected one of user, assistant, system, "
                            "tool, summary, got \"bot\"",
                            "mnemod.yaml:2:30: memory.capture_roles[2]: role \"user\" is listed twice"));
    EXPECT_THAT(errors_of("memory:\n  capture_namespace: \"a b\"\n"),
                ElementsAre("mnemod.yaml:2:22: memory.capture_namespace: expected 0..128 bytes of letters, digits "
                            "and . _ : @ -, got \"a b\""));
    EXPECT_EQ(valid("memory:\n  capture_namespace: \"\"\n")->memory.capture_namespace, "");
}

TEST(MemoryConfig, ExtractTriggerUsesTheSummaryTriggerRules) {
    EXPECT_THAT(errors_of("memory:\n  extract_trigger: {any: {events: 0}}\n"),
                ElementsAre("mnemod.yaml:2:35: memory.extract_trigger.any.events: expected a whole number >= 1, "
                            "got 0"));
    EXPECT_THAT(errors_of("memory:\n  extract_trigger: 5\n"),
                ElementsAre("mnemod.yaml:2:20: memory.extract_trigger: expected a map with exactly one of any: or "
                            "all: holding events, tokens and/or idle, got \"5\""));
}

TEST(MemoryConfig, HttpEmbedderNeedsUrlAndModel) {
    EXPECT_THAT(errors_of("memory:\n  embedder:\n    kind: http\n"),
                ElementsAre("mnemod.yaml:3:11: memory.embedder.url: expected the base URL of an OpenAI-compatible "
                            "API starting with http:// or https:// (e.g. http://127.0.0.1:11434/v1) when "
                            "memory.embedder.kind is http, got \"\"",
                            "mnemod.yaml:3:11: memory.embedder.model: expected the embedding model's name (e.g. "
                            "nomic-embed-text) when memory.embedder.kind is http"));
    EXPECT_THAT(errors_of("memory:\n  embedder:\n    kind: http\n    model: m\n    url: localhost:11434\n"),
                ElementsAre("mnemod.yaml:5:10: memory.embedder.url: expected the base URL of an OpenAI-compatible "
                            "API starting with http:// or https:// (e.g. http://127.0.0.1:11434/v1) when "
                            "memory.embedder.kind is http, got \"localhost:11434\""));
}

TEST(MemoryConfig, CommandEmbedderNeedsAnArgv) {
    EXPECT_THAT(errors_of("memory:\n  embedder: {kind: command, command: []}\n"),
                ElementsAre("mnemod.yaml:2:38: memory.embedder.command: expected a non-empty list (the embedder's "
                            "argv, e.g. [\"/usr/bin/embed\", \"--json\"]) when memory.embedder.kind is command"));
}

TEST(MemoryConfig, KindNoneIgnoresTheOtherEmbedderKeys) {
    auto config = valid("memory:\n  embedder: {kind: none, url: \"not a url\", command: []}\n");
    EXPECT_EQ(config->memory.embedder.kind, EmbedderConfig::Kind::None);
}

TEST(MemoryConfig, ExtractByCommandNeedsExtractCommand) {
    EXPECT_THAT(errors_of("memory:\n  capture: extract\n  extractor: command\n"),
                ElementsAre("mnemod.yaml:2:12: memory.capture: capture is extract and memory.extractor is command, "
                            "but memory.extract_command is empty; set memory.extract_command to the extractor's argv "
                            "(e.g. [\"/usr/bin/extract\"]) or use extractor: lua"));
    auto config = valid("memory:\n  capture: extract\n  extractor: command\n  extract_command: [/usr/bin/x]\n");
    EXPECT_EQ(config->memory.extract_command, (std::vector<std::string>{"/usr/bin/x"}));
    EXPECT_EQ(valid("memory:\n  capture: extract\n")->memory.capture, MemoryConfig::Capture::Extract);
}

TEST(MemoryConfig, AppOverridesMergeOverTheGlobalSection) {
    auto config = valid(std::string(kHttpEmbedder) +
                        "  ttl: 1d\n  capture_roles: [user]\n"
                        "apps:\n  shop:\n    memory: {ttl: 90d, capture: events, capture_namespace: chat}\n");
    const MemoryConfig& shop = config->memory_for("shop");
    EXPECT_EQ(shop.ttl_us, 90LL * 86400 * 1000000);
    EXPECT_EQ(shop.capture, MemoryConfig::Capture::Events);
    EXPECT_EQ(shop.capture_namespace, "chat");
    EXPECT_EQ(shop.capture_roles, (std::vector<std::string>{"user"}));
    EXPECT_EQ(shop.embedder.model, "m");
    const MemoryConfig& other = config->memory_for("blog");
    EXPECT_EQ(other.ttl_us, 86400LL * 1000000);
    EXPECT_EQ(other.capture, MemoryConfig::Capture::None);
    EXPECT_EQ(config->value_json("apps.shop.memory.capture"), "\"events\"");
    EXPECT_EQ(config->value_json("apps.shop.memory.embedder"), std::nullopt);  // apps do not override it
}

TEST(MemoryConfig, AppsMayNotOverrideTheEmbedder) {
    EXPECT_THAT(errors_of("apps:\n  shop:\n    memory: {embedder: {kind: none}}\n"),
                ElementsAre("mnemod.yaml:3:14: apps.shop.memory.embedder: unknown key (expected one of ttl, "
                            "capture, capture_roles, capture_namespace, extract_trigger)"));
}

TEST(MemoryConfig, AppExtractCaptureChecksTheGlobalExtractor) {
    EXPECT_THAT(errors_of("memory: {extractor: command}\napps:\n  shop:\n    memory: {capture: extract}\n"),
                ElementsAre("mnemod.yaml:4:23: apps.shop.memory.capture: capture is extract and memory.extractor is "
                            "command, but memory.extract_command is empty; set memory.extract_command to the "
                            "extractor's argv (e.g. [\"/usr/bin/extract\"]) or use extractor: lua"));
}

TEST(MemoryReload, CaptureTtlTriggersAndCallSettingsApplyLive) {
    ReloadPlan result =
        plan(std::string(kHttpEmbedder), std::string(kHttpEmbedder) +
                                             "  ttl: 1h\n  capture: events\n  extract_trigger: {any: {events: 5}}\n"
                                             "apps: {shop: {memory: {extract_trigger: {all: {idle: 1m}}}}}\n");
    EXPECT_THAT(result.refused, IsEmpty());
    EXPECT_THAT(result.changed, ElementsAre("apps.shop", "memory.capture", "memory.extract_trigger", "memory.ttl"));
    ReloadPlan embedder = plan("memory: {embedder: {api_key: a, timeout: 5s, retries: 1, batch: 8}}\n",
                               "memory: {embedder: {api_key: b, timeout: 9s, retries: 2, batch: 16}}\n");
    EXPECT_THAT(embedder.refused, IsEmpty());
    EXPECT_THAT(embedder.changed, ElementsAre("memory.embedder.api_key", "memory.embedder.batch",
                                              "memory.embedder.retries", "memory.embedder.timeout"));
}

TEST(MemoryReload, AnotherEmbedderOrPoolNeedsARestart) {
    ReloadPlan result = plan(std::string(kHttpEmbedder),
                             "memory:\n  dimensions: 768\n  queue_size: 5\n"
                             "  embedder: {kind: http, url: \"http://e:1/v1\", model: n, workers: 4}\n");
    EXPECT_THAT(result.refused,
                ElementsAre("memory.dimensions changed (0 -> 768): needs a restart",
                            "memory.embedder.model changed (m -> n): needs a restart",
                            "memory.embedder.url changed (http://127.0.0.1:11434/v1 -> http://e:1/v1): needs a restart",
                            "memory.embedder.workers changed (2 -> 4): needs a restart",
                            "memory.queue_size changed (10000 -> 5): needs a restart"));
}

}  // namespace
}  // namespace mnemo::config
