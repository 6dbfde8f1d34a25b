// memory.embedder.kind http against tests/fixtures/fake_embedder.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fake_embedder_server.h"
#include "memory/embedder.h"

namespace mnemo::memory {
namespace {

using ::testing::ElementsAre;
using testing::fake_vector;
using testing::FakeEmbedderServer;
using ::testing::HasSubstr;
using ::testing::StartsWith;

config::EmbedderConfig settings_for(const FakeEmbedderServer& server, std::string model = "nomic-embed-text") {
    config::EmbedderConfig settings;
    settings.kind = config::EmbedderConfig::Kind::Http;
    settings.url = server.url();
    settings.model = std::move(model);
    settings.timeout_us = 10000000;
    return settings;
}

class HttpEmbedderTest : public ::testing::Test {
protected:
    EmbedOutcome embed(const FakeEmbedderServer& server, const std::vector<std::string>& texts) {
        return embed(settings_for(server), texts);
    }
    EmbedOutcome embed(const config::EmbedderConfig& settings, const std::vector<std::string>& texts) {
        return client->embed(texts, settings, cancel);
    }
    std::unique_ptr<Embedder> client = make_embedder(config::EmbedderConfig::Kind::Http);
    std::atomic<bool> cancel{false};
};

TEST_F(HttpEmbedderTest, OneCallEmbedsTheWholeBatchWithTheModel) {
    FakeEmbedderServer server;
    EmbedOutcome outcome = embed(server, {"aisle seat", "window seat", "vegetarian meals"});
    ASSERT_FALSE(outcome.error) << *outcome.error;
    ASSERT_EQ(outcome.vectors.size(), 3u);
    EXPECT_EQ(outcome.vectors[0], fake_vector("aisle seat"));
    EXPECT_EQ(outcome.vectors[2], fake_vector("vegetarian meals"));
    auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].model, "nomic-embed-text");
    EXPECT_THAT(requests[0].inputs, ElementsAre("aisle seat", "window seat", "vegetarian meals"));
    EXPECT_EQ(requests[0].authorization, "");
}

TEST_F(HttpEmbedderTest, ApiKeyIsSentAsBearerToken) {
    FakeEmbedderServer server({"--api-key", "sk-right"});
    config::EmbedderConfig settings = settings_for(server);
    settings.api_key = "sk-right";
    EmbedOutcome outcome = embed(settings, {"hello"});
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_EQ(server.requests().at(0).authorization, "Bearer sk-right");

    settings.api_key = "sk-wrong";
    outcome = embed(settings, {"hello"});
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "embedder at " + server.url() +
                                  "/embeddings answered HTTP 401: {\"error\": {\"message\": \"Incorrect API key "
                                  "provided\"}}");
}

TEST_F(HttpEmbedderTest, AnswerIsPutInInputOrderByIndex) {
    FakeEmbedderServer server({"--shuffle"});
    EmbedOutcome outcome = embed(server, {"first text", "second text", "third"});
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_EQ(outcome.vectors[0], fake_vector("first text"));
    EXPECT_EQ(outcome.vectors[1], fake_vector("second text"));
    EXPECT_EQ(outcome.vectors[2], fake_vector("third"));
}

TEST_F(HttpEmbedderTest, WithoutIndexTheAnswerIsTakenByPosition) {
    FakeEmbedderServer server({"--no-index"});
    EmbedOutcome outcome = embed(server, {"first text", "second text"});
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_EQ(outcome.vectors[1], fake_vector("second text"));
}

TEST_F(HttpEmbedderTest, WrongCountIsAFailure) {
    FakeEmbedderServer server({"--wrong-count"});
    EmbedOutcome outcome = embed(server, {"a", "b"});
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, StartsWith("embedder at " + server.url() +
                                           "/embeddings answered 1 vectors for 2 "
                                           "texts (answer: {\"object\": \"list\""));
    EXPECT_TRUE(outcome.vectors.empty());
}

TEST_F(HttpEmbedderTest, ServerErrorIsReportedWithStatusAndBody) {
    FakeEmbedderServer server({"--fail", "1"});
    EmbedOutcome outcome = embed(server, {"a"});
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "embedder at " + server.url() +
                                  "/embeddings answered HTTP 500: {\"error\": {\"message\": \"fake failure 1 of 1\"}}");
    EXPECT_FALSE(embed(server, {"a"}).error);  // the next call succeeds
}

TEST_F(HttpEmbedderTest, SlowServerTimesOut) {
    FakeEmbedderServer server({"--latency", "30"});
    config::EmbedderConfig settings = settings_for(server);
    settings.timeout_us = 300000;
    EmbedOutcome outcome = embed(settings, {"a"});
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error,
              "embedder at " + server.url() + "/embeddings did not answer within memory.embedder.timeout (300 ms)");
}

TEST_F(HttpEmbedderTest, StoppedServerIsConnectionRefused) {
    FakeEmbedderServer server;
    server.stop();
    EmbedOutcome outcome = embed(server, {"a"});
    ASSERT_TRUE(outcome.error);
    EXPECT_THAT(*outcome.error, StartsWith("cannot reach embedder at " + server.url() + "/embeddings: "));
    EXPECT_THAT(*outcome.error, HasSubstr("port " + std::to_string(server.port())));
}

TEST_F(HttpEmbedderTest, ConnectionIsKeptAliveBetweenCalls) {
    FakeEmbedderServer server;
    ASSERT_FALSE(embed(server, {"a"}).error);
    ASSERT_FALSE(embed(server, {"b"}).error);
    auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0].peer_port, requests[1].peer_port);
}

TEST_F(HttpEmbedderTest, TrailingSlashOfTheUrlIsIgnored) {
    FakeEmbedderServer server;
    config::EmbedderConfig settings = settings_for(server);
    settings.url += "/";
    EXPECT_FALSE(embed(settings, {"a"}).error);
}

TEST_F(HttpEmbedderTest, CancelledCallEndsWithoutAnswer) {
    FakeEmbedderServer server({"--latency", "30"});
    cancel = true;
    EmbedOutcome outcome = embed(server, {"a"});
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(*outcome.error, "call to embedder at " + server.url() + "/embeddings was cancelled (mnemod is stopping)");
}

TEST_F(HttpEmbedderTest, NoTextsMakeNoCall) {
    FakeEmbedderServer server;
    EmbedOutcome outcome = embed(server, {});
    EXPECT_FALSE(outcome.error);
    EXPECT_TRUE(outcome.vectors.empty());
    EXPECT_TRUE(server.requests().empty());
}

}  // namespace
}  // namespace mnemo::memory
