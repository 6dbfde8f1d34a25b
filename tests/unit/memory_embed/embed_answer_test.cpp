// The request body both kinds send and the reading of an embeddings answer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "memory/embedder.h"

namespace mnemo::memory {
namespace {

using ::testing::ElementsAre;

constexpr std::string_view kSource = "embedder at http://e/v1/embeddings";

std::string error_of(std::string_view json, size_t expected) {
    EmbedOutcome outcome = parse_embed_answer(json, expected, kSource);
    EXPECT_TRUE(outcome.vectors.empty());
    return outcome.error.value_or("(no error)");
}

TEST(EmbedAnswer, RequestBodyHoldsModelAndEscapedInputs) {
    EXPECT_EQ(embed_request_body("m-1", {"say \"hi\"", "line\nbreak"}),
              R"({"model":"m-1","input":["say \"hi\"","line\nbreak"]})");
}

TEST(EmbedAnswer, VectorsAreReadInIndexOrder) {
    EmbedOutcome outcome =
        parse_embed_answer(R"({"data":[{"index":1,"embedding":[3,4]},{"index":0,"embedding":[1,2.5]}]})", 2, kSource);
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_THAT(outcome.vectors, ElementsAre(ElementsAre(1.0f, 2.5f), ElementsAre(3.0f, 4.0f)));
}

TEST(EmbedAnswer, ItemsWithoutIndexAreTakenByPosition) {
    EmbedOutcome outcome = parse_embed_answer(R"({"data":[{"embedding":[1]},{"embedding":[2]}]})", 2, kSource);
    ASSERT_FALSE(outcome.error) << *outcome.error;
    EXPECT_THAT(outcome.vectors, ElementsAre(ElementsAre(1.0f), ElementsAre(2.0f)));
}

TEST(EmbedAnswer, CountMustMatchTheTexts) {
    EXPECT_EQ(error_of(R"({"data":[{"embedding":[1]}]})", 2),
              "embedder at http://e/v1/embeddings answered 1 vectors for 2 texts (answer: "
              R"({"data":[{"embedding":[1]}]}))");
}

TEST(EmbedAnswer, NonFiniteNumbersFail) {
    EXPECT_EQ(error_of(R"({"data":[{"embedding":[1, 1e300]}]})", 1),
              "embedder at http://e/v1/embeddings answered badly: data[0].embedding[1] is not a finite number "
              R"((1e+300) (answer: {"data":[{"embedding":[1, 1e300]}]}))");
    EXPECT_EQ(error_of(R"({"data":[{"embedding":[1, "x"]}]})", 1),
              "embedder at http://e/v1/embeddings answered badly: data[0].embedding[1] is not a number (answer: "
              R"({"data":[{"embedding":[1, "x"]}]}))");
}

TEST(EmbedAnswer, VectorsMustHaveOneLength) {
    EXPECT_EQ(error_of(R"({"data":[{"embedding":[1,2]},{"embedding":[1,2,3]}]})", 2),
              "embedder at http://e/v1/embeddings answered vectors of different lengths: data[0] has 2 numbers, "
              R"(data[1] has 3 (answer: {"data":[{"embedding":[1,2]},{"embedding":[1,2,3]}]}))");
    EXPECT_EQ(error_of(R"({"data":[{"embedding":[]}]})", 1),
              "embedder at http://e/v1/embeddings answered badly: data[0].embedding is empty (answer: "
              R"({"data":[{"embedding":[]}]}))");
}

TEST(EmbedAnswer, IndexesMustBeInRangeAndDistinct) {
    EXPECT_EQ(error_of(R"({"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]})", 2),
              "embedder at http://e/v1/embeddings answered badly: data[1].index 0 is repeated (answer: "
              R"({"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}))");
    EXPECT_EQ(error_of(R"({"data":[{"index":5,"embedding":[1]}]})", 1),
              "embedder at http://e/v1/embeddings answered badly: data[0].index is 5, past the 1 inputs (answer: "
              R"({"data":[{"index":5,"embedding":[1]}]}))");
}

TEST(EmbedAnswer, ShapeErrorsNameWhatIsMissing) {
    EXPECT_EQ(error_of(R"({"error":"x"})", 1),
              R"(embedder at http://e/v1/embeddings answered without a "data" list (answer: {"error":"x"}))");
    EXPECT_EQ(error_of(R"({"data":[{"vector":[1]}]})", 1),
              "embedder at http://e/v1/embeddings answered badly: data[0].embedding is not a list of numbers "
              R"((answer: {"data":[{"vector":[1]}]}))");
    EXPECT_THAT(error_of("<html>", 1), ::testing::StartsWith("embedder at http://e/v1/embeddings answered with "
                                                             "invalid JSON ("));
}

TEST(EmbedAnswer, ExcerptCutsAtACharacterBoundary) {
    EXPECT_EQ(excerpt("short", 200), "short");
    EXPECT_EQ(excerpt("a\nb", 200), "a b");
    EXPECT_EQ(excerpt("ab\xC3\xA9z", 3), "ab...");  // é is two bytes: not split
}

}  // namespace
}  // namespace mnemo::memory
