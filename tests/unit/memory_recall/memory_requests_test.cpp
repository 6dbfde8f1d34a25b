// docs/memories.md's body rules: each bad field answers a 400 that names it (and its
// index in a batch); good bodies decode to exactly what was sent.
#include "memory/memory_requests.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mnemo::memory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

MemoryRequestLimits small_limits() {
    return MemoryRequestLimits{3, 16};
}

std::string write_error(std::string body, MemoryRequestLimits limits = small_limits()) {
    MemoryWriteInput in;
    auto error = decode_memory_write(body, limits, in);
    if (!error) return "";
    EXPECT_EQ(error->code, core::ErrorCode::InvalidArgument) << error->message;
    return error->message;
}

std::string recall_error(std::string body) {
    RecallInput in;
    auto error = decode_recall(body, in);
    return error ? error->message : "";
}

TEST(MemoryWrite, DecodesEveryField) {
    std::string body = R"({"wait":true,"memories":[
        {"id":"m-1","text":"Prefers aisle seats","namespace":"prefs","metadata":{"b":1, "a":[2]},
         "session_id":"s1","embedding":[0.5,-1,2e-3],"embedding_model":"tiny","ttl_seconds":60},
        {"text":"second"}]})";
    MemoryWriteInput in;
    ASSERT_FALSE(decode_memory_write(body, MemoryRequestLimits{3, 64}, in));
    EXPECT_TRUE(in.wait);
    ASSERT_EQ(in.items.size(), 2u);
    const auto& first = in.items[0];
    EXPECT_EQ(first.id, "m-1");
    EXPECT_EQ(first.text, "Prefers aisle seats");
    EXPECT_EQ(first.name_space, "prefs");
    EXPECT_EQ(first.metadata_json, R"({"b":1, "a":[2]})");  // byte for byte
    EXPECT_EQ(first.session_id, "s1");
    ASSERT_TRUE(first.embedding);
    EXPECT_THAT(*first.embedding, ElementsAre(0.5f, -1.0f, 2e-3f));
    EXPECT_EQ(first.embedding_model, "tiny");
    EXPECT_EQ(first.ttl_seconds, 60);
    const auto& second = in.items[1];
    EXPECT_FALSE(second.id || second.name_space || second.metadata_json || second.embedding || second.ttl_seconds);
}

TEST(MemoryWrite, NamesTheFieldAndItsIndex) {
    EXPECT_THAT(write_error(R"({"memories":[]})"), HasSubstr("memories: the list is empty"));
    EXPECT_THAT(write_error(R"({})"), HasSubstr("memories: required"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a"},{"text":""}]})"),
                HasSubstr("memories[1].text: the text is empty"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"12345678901234567"}]})"),
                HasSubstr("memories[0].text: 17 bytes is over memory.max_text_bytes (16)"));
    EXPECT_THAT(write_error(R"({"memories":[{"id":"x"}]})"), HasSubstr("memories[0].text: required"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","id":"search"}]})"),
                HasSubstr("memories[0].id: 'search' is reserved"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","id":"a/b"}]})"), HasSubstr("memories[0].id: memory id"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","namespace":"has space"}]})"),
                HasSubstr("memories[0].namespace: 'has space' has a character outside"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","metadata":[1]}]})"), HasSubstr("memories[0].metadata"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","embedding":[1,"x"]}]})"),
                HasSubstr("memories[0].embedding[1]"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","embedding":[1,1e300]}]})"),
                HasSubstr("memories[0].embedding[1]: 1e+300 is not a finite 32-bit number"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","embedding":[]}]})"),
                HasSubstr("memories[0].embedding: the vector is empty"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","ttl_seconds":-1}]})"),
                HasSubstr("memories[0].ttl_seconds: must be 0"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a","session_id":".."}]})"), HasSubstr("memories[0].session_id"));
    EXPECT_THAT(write_error(R"({"memories":[{"id":"d","text":"a"},{"id":"d","text":"b"}]})"),
                HasSubstr("memories[1].id: 'd' appears twice"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a"},{"text":"b"},{"text":"c"},{"text":"d"}]})"),
                HasSubstr("more than limits.max_batch_events (3)"));
    EXPECT_THAT(write_error(R"({"memories":[{"text":"a"}],"wait":"yes"})"), HasSubstr("wait"));
}

TEST(MemoryWrite, NamespaceRules) {
    EXPECT_FALSE(check_namespace("", "namespace"));  // the default one
    EXPECT_FALSE(check_namespace("a.b_c:d@e-f9", "namespace"));
    EXPECT_TRUE(check_namespace(std::string(129, 'a'), "namespace"));
    EXPECT_FALSE(check_namespace(std::string(128, 'a'), "namespace"));
}

TEST(MemoryPatch, KeepsAbsentFieldsAbsent) {
    std::string body = R"({"metadata":{"k":"v"}})";
    MemoryPatchInput in;
    ASSERT_FALSE(decode_memory_patch(body, small_limits(), in));
    EXPECT_EQ(in.metadata_json, R"({"k":"v"})");
    EXPECT_FALSE(in.text || in.name_space || in.embedding || in.ttl_seconds);
    std::string empty_text = R"({"text":""})";
    MemoryPatchInput bad;
    auto error = decode_memory_patch(empty_text, small_limits(), bad);
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("text: the text is empty"));
}

TEST(Recall, DecodesFiltersAndClampsTheLimit) {
    std::string body = R"({"query":"aisle","user":"u1","namespace":"","session_id":"s1",
        "metadata":{"lang":"de","n":1.0,"ok":true,"none":null},"created_after":10,"created_before":"1970-01-01T00:00:20Z",
        "mode":"hybrid","limit":500,"min_similarity":0.25})";
    RecallInput in;
    ASSERT_FALSE(decode_recall(body, in));
    EXPECT_EQ(in.query, "aisle");
    EXPECT_EQ(in.user, "u1");
    EXPECT_EQ(in.name_space, "");
    EXPECT_EQ(in.session_id, "s1");
    ASSERT_EQ(in.metadata.size(), 4u);
    EXPECT_EQ(in.metadata[0].key, "lang");
    EXPECT_EQ(in.metadata[0].value_json, "\"de\"");
    EXPECT_EQ(in.metadata[1].value_json, "1.0");
    EXPECT_EQ(in.created_after_us, 10'000'000);
    EXPECT_EQ(in.created_before_us, 20'000'000);
    EXPECT_EQ(in.mode, RecallMode::Hybrid);
    EXPECT_EQ(in.limit, kMaxRecallLimit);
    EXPECT_EQ(in.min_similarity, 0.25);
}

TEST(Recall, RefusesWhatCannotBeAnswered) {
    EXPECT_THAT(recall_error(R"({"user":"u1"})"), HasSubstr("query: recall needs a query text, an embedding"));
    EXPECT_THAT(recall_error(R"({"query":""})"), HasSubstr("recall needs a query text"));
    EXPECT_THAT(recall_error(R"({"embedding":[1],"mode":"keyword"})"), HasSubstr("mode keyword needs a query text"));
    EXPECT_THAT(recall_error(R"({"query":"a","mode":"fuzzy"})"), HasSubstr("mode: 'fuzzy' is not one of"));
    EXPECT_THAT(recall_error(R"({"query":"a","limit":0})"), HasSubstr("limit: must be 1 or more"));
    EXPECT_THAT(recall_error(R"({"query":"a","min_similarity":2})"), HasSubstr("min_similarity: 2 is outside -1..1"));
    EXPECT_THAT(recall_error(R"({"query":"a","metadata":{"k":{"x":1}}})"), HasSubstr("metadata.k"));
    EXPECT_THAT(recall_error(R"({"query":"a","user":"a b"})"), HasSubstr("user: user id"));
    EXPECT_THAT(recall_error(R"({"query":"a","created_after":20,"created_before":10})"),
                HasSubstr("created_before: must be later than created_after"));
    EXPECT_EQ(recall_error(R"({"embedding":[0.1,0.2]})"), "");
}

TEST(Recall, GetRouteParameters) {
    RecallInput in;
    ASSERT_FALSE(decode_recall_params(RecallQueryParams{"seats", "prefs", "keyword", "5", "all"}, in));
    EXPECT_EQ(in.query, "seats");
    EXPECT_EQ(in.name_space, "prefs");
    EXPECT_EQ(in.mode, RecallMode::Keyword);
    EXPECT_EQ(in.limit, 5);
    EXPECT_TRUE(in.match_all);
    RecallInput bad;
    auto error = decode_recall_params(RecallQueryParams{"seats", std::nullopt, std::nullopt, "5x", std::nullopt}, bad);
    ASSERT_TRUE(error);
    EXPECT_THAT(error->message, HasSubstr("limit: '5x' is not a whole number"));
    RecallInput bad_match;
    auto match_error =
        decode_recall_params(RecallQueryParams{"seats", std::nullopt, std::nullopt, std::nullopt, "most"}, bad_match);
    ASSERT_TRUE(match_error);
    EXPECT_THAT(match_error->message, HasSubstr("match: 'most' is not one of any, all"));
    RecallInput none;
    EXPECT_TRUE(decode_recall_params(RecallQueryParams{}, none));
}

TEST(DedupeFolding, CaseAccentsAndWhiteSpace) {
    EXPECT_EQ(fold_memory_text("  Crème\t brûlée\n\nIS  great "), "creme brulee is great");
    EXPECT_EQ(fold_memory_text("Mädchen\u00A0\u3000Straße"), fold_memory_text("MÄDCHEN straße"));
    EXPECT_EQ(fold_memory_text("Mädchen\u00A0\u3000Straße"), "madchen straße");
    EXPECT_NE(fold_memory_text("aisle seat"), fold_memory_text("aisle seats"));
    EXPECT_EQ(fold_memory_text(" \t\n"), "");
}

}  // namespace
}  // namespace mnemo::memory

namespace mnemo::memory {
namespace {

// An extractor's answer (capture: extract): each item is judged alone.
TEST(MemoryExtracted, KeepsTheGoodItemsAndNamesEachSkippedOneWithItsIndexAndReason) {
    std::string answer = R"([
        {"text":"Prefers aisle seats","namespace":"prefs","metadata":{"a":1},"id":"ignored","embedding":"ignored"},
        {"text":""},
        "not an object",
        {"text":"this text is too long"},
        {"text":"bad ns","namespace":"has space"},
        {"text":"bad metadata","metadata":[1]},
        {"namespace":"prefs"},
        {"text":"plain"}])";
    ExtractedItems out;
    ASSERT_FALSE(decode_extracted(answer, MemoryRequestLimits{100, 20}, out));
    ASSERT_EQ(out.items.size(), 2u);
    EXPECT_EQ(out.items[0].text, "Prefers aisle seats");
    EXPECT_EQ(out.items[0].name_space, "prefs");
    EXPECT_EQ(out.items[0].metadata_json, R"({"a":1})");
    EXPECT_FALSE(out.items[0].id) << "an extractor does not choose ids";
    EXPECT_FALSE(out.items[0].embedding);
    EXPECT_EQ(out.items[1].text, "plain");
    EXPECT_FALSE(out.items[1].name_space) << "the default namespace";
    ASSERT_EQ(out.skipped.size(), 6u);
    std::vector<size_t> indexes;
    for (const auto& [index, reason] : out.skipped) indexes.push_back(index);
    EXPECT_THAT(indexes, ElementsAre(1, 2, 3, 4, 5, 6));
    EXPECT_THAT(out.skipped[0].second, HasSubstr("[1].text: the text is empty"));
    EXPECT_THAT(out.skipped[1].second, HasSubstr("[2]"));
    EXPECT_THAT(out.skipped[2].second, HasSubstr("[3].text: 21 bytes is over memory.max_text_bytes (20)"));
    EXPECT_THAT(out.skipped[3].second, HasSubstr("[4].namespace"));
    EXPECT_THAT(out.skipped[4].second, HasSubstr("[5].metadata"));
    EXPECT_THAT(out.skipped[5].second, HasSubstr("[6].text: required"));
}

TEST(MemoryExtracted, ItemsPastTheBatchLimitAreSkipped) {
    std::string answer = R"([{"text":"a"},{"text":"b"},{"text":"c"}])";
    ExtractedItems out;
    ASSERT_FALSE(decode_extracted(answer, MemoryRequestLimits{2, 16}, out));
    EXPECT_EQ(out.items.size(), 2u);
    ASSERT_EQ(out.skipped.size(), 1u);
    EXPECT_EQ(out.skipped[0].first, 2u);
    EXPECT_THAT(out.skipped[0].second, HasSubstr("limits.max_batch_events (2)"));
}

TEST(MemoryExtracted, AnAnswerThatIsNoArrayIsAnErrorAndKeepsNothing) {
    for (std::string answer : {std::string(R"({"text":"a"})"), std::string("not json"), std::string("")}) {
        ExtractedItems out;
        EXPECT_TRUE(decode_extracted(answer, small_limits(), out)) << answer;
        EXPECT_TRUE(out.items.empty());
    }
    std::string empty = "[]";
    ExtractedItems out;
    EXPECT_FALSE(decode_extracted(empty, small_limits(), out));
    EXPECT_TRUE(out.items.empty() && out.skipped.empty());
}

}  // namespace
}  // namespace mnemo::memory
