#include "chunk_shape.h"

#include <gtest/gtest.h>

namespace mnemo::admin {
namespace {

TEST(ClassifyChunk, ExpressionsAreSentAsReturn) {
    EXPECT_EQ(classify_chunk("1+1"), ChunkShape::Expression);
    EXPECT_EQ(classify_chunk("stats()"), ChunkShape::Expression);
    EXPECT_EQ(classify_chunk("sessions.list{app=\"shop\"}"), ChunkShape::Expression);
    EXPECT_EQ(classify_chunk("1, 'two'"), ChunkShape::Expression);
}

TEST(ClassifyChunk, StatementsAreSentAsTheyAre) {
    EXPECT_EQ(classify_chunk("x = 1"), ChunkShape::Statements);
    EXPECT_EQ(classify_chunk("return 1"), ChunkShape::Statements);
    EXPECT_EQ(classify_chunk("function f(x)\n  return x*2\nend"), ChunkShape::Statements);
    EXPECT_EQ(classify_chunk("local t = {}; for i = 1, 3 do t[i] = i end"), ChunkShape::Statements);
}

TEST(ClassifyChunk, TextTheParserRanOutOfIsIncomplete) {
    EXPECT_EQ(classify_chunk("function f(x)"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("function f(x)\n  return x*2"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("if x then"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("t = {"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("sessions.list{"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("s = [[first line"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("--[[ a long comment"), ChunkShape::Incomplete);
    // As in lua: a quoted string that runs into the end of the text; the next line ends it badly.
    EXPECT_EQ(classify_chunk("s = \"unfinished"), ChunkShape::Incomplete);
    EXPECT_EQ(classify_chunk("s = \"unfinished\nstill\""), ChunkShape::Invalid);
}

TEST(ClassifyChunk, OtherSyntaxErrorsAreLeftToTheServer) {
    EXPECT_EQ(classify_chunk("x = = 1"), ChunkShape::Invalid);
    EXPECT_EQ(classify_chunk("end"), ChunkShape::Invalid);
    EXPECT_EQ(classify_chunk("function f(x) return x end end"), ChunkShape::Invalid);
}

TEST(ChunkAccumulator, ExpressionLineBecomesReturn) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("1+1"), "return 1+1;");
    EXPECT_FALSE(chunk.continuing());
}

TEST(ChunkAccumulator, MultiLineFunctionIsOneChunk) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("function f(x)"), std::nullopt);
    EXPECT_TRUE(chunk.continuing());
    EXPECT_EQ(chunk.add_line("  return x*2"), std::nullopt);
    EXPECT_TRUE(chunk.continuing());
    EXPECT_EQ(chunk.add_line("end"), "function f(x)\n  return x*2\nend");
    EXPECT_FALSE(chunk.continuing());
    EXPECT_EQ(chunk.add_line("f(21)"), "return f(21);");
}

TEST(ChunkAccumulator, ContinuedExpressionIsReturnedWhole) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("sessions.list{"), std::nullopt);
    EXPECT_EQ(chunk.add_line("  app = \"shop\"}"), "return sessions.list{\n  app = \"shop\"};");
}

TEST(ChunkAccumulator, BlankLinesAloneAreNotSent) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line(""), std::nullopt);
    EXPECT_EQ(chunk.add_line("   "), std::nullopt);
    EXPECT_FALSE(chunk.continuing());
}

TEST(ChunkAccumulator, BlankLineInsideAChunkKeepsItGoing) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("if true then"), std::nullopt);
    EXPECT_EQ(chunk.add_line(""), std::nullopt);
    EXPECT_TRUE(chunk.continuing());
    EXPECT_EQ(chunk.add_line("end"), "if true then\n\nend");
}

TEST(ChunkAccumulator, SyntaxErrorIsSentForTheServerToReport) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("x = = 1"), "x = = 1");
    EXPECT_FALSE(chunk.continuing());
}

TEST(ChunkAccumulator, ClearDropsAnUnfinishedChunk) {
    ChunkAccumulator chunk;
    EXPECT_EQ(chunk.add_line("function g()"), std::nullopt);
    chunk.clear();
    EXPECT_FALSE(chunk.continuing());
    EXPECT_EQ(chunk.add_line("2*3"), "return 2*3;");
}

}  // namespace
}  // namespace mnemo::admin
