// core/export_jsonl: a memory line round-trips every field (vector floats
// bit for bit), is checked as the memory routes check a write, and carries
// its folded text for dedupe.
#include "core/export_jsonl.h"
#include "storage/rows.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cstring>
#include <limits>
#include <vector>

namespace mnemo::core {
namespace {

using storage::str;

struct Fixture {
    std::vector<float> vector{0.1f, -2.5f, 1e-38f, FLT_MAX, -0.0f, 3.14159274f, 1.0f, FLT_MIN / 4};
    mnemo_memory memory{};
    mnemo_record record{};

    Fixture() {
        memory.key = 41;
        memory.app = str("shop");
        memory.user = str("u1");
        memory.id = str("m-1");
        memory.name_space = str("travel:eu");
        memory.text = str("Prefers  AISLE\nseats \"always\" ☃");
        memory.metadata_json = str(R"({"k" : [1, 2.50], "n":null})");
        memory.session_id = str("s1");
        memory.source_session = str("s1");
        memory.source_seq = 7;
        memory.embedding = MNEMO_EMBEDDING_READY;
        memory.embedding_model = str("nomic-embed-text");
        memory.vector = mnemo_vector{vector.data(), vector.size()};
        memory.text_version = 3;
        memory.created_at_us = 1'790'000'000'000'001;
        memory.updated_at_us = 1'790'000'000'500'002;
        memory.expires_at_us = 1'800'000'000'000'000;
        record.kind = MNEMO_RECORD_MEMORY;
        record.key = mnemo_key{memory.app, memory.user, mnemo_str{nullptr, 0}};
        record.memory = &memory;
    }
};

std::string view(mnemo_str text) {
    return text.ptr ? std::string(text.ptr, text.len) : std::string("<absent>");
}

TEST(ExportJsonlMemory, EveryFieldRoundTripsAndTheVectorBitForBit) {
    Fixture f;
    std::string line = encode_record(f.record);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    EXPECT_EQ(line.find("\"key\""), std::string::npos) << "the key is the source store's own: " << line;
    EXPECT_NE(line.find(R"("source":{"session":"s1","seq":7})"), std::string::npos) << line;
    EXPECT_NE(line.find(R"("embedding":"ready")"), std::string::npos) << line;

    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    RecordParts parts;
    const mnemo_record view_back = record_view(back, parts);
    ASSERT_EQ(view_back.kind, MNEMO_RECORD_MEMORY);
    const mnemo_memory& m = *view_back.memory;
    EXPECT_EQ(view(m.app), "shop");
    EXPECT_EQ(view(m.user), "u1");
    EXPECT_EQ(view(m.id), "m-1");
    EXPECT_EQ(view(m.name_space), "travel:eu");
    EXPECT_EQ(view(m.text), view(f.memory.text));
    EXPECT_EQ(view(m.metadata_json), view(f.memory.metadata_json));
    EXPECT_EQ(view(m.session_id), "s1");
    EXPECT_EQ(view(m.source_session), "s1");
    EXPECT_EQ(m.source_seq, 7);
    EXPECT_EQ(m.embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(view(m.embedding_model), "nomic-embed-text");
    EXPECT_EQ(m.created_at_us, f.memory.created_at_us);
    EXPECT_EQ(m.updated_at_us, f.memory.updated_at_us);
    EXPECT_EQ(m.expires_at_us, f.memory.expires_at_us);
    ASSERT_EQ(m.vector.dims, f.vector.size());
    EXPECT_EQ(std::memcmp(m.vector.values, f.vector.data(), f.vector.size() * sizeof(float)), 0) << line;
    EXPECT_EQ(view(view_back.folded_text), "prefers aisle seats \"always\" ☃");
}

TEST(ExportJsonlMemory, NullsStayNullAndAPendingMemoryMayHoldNoVector) {
    Fixture f;
    f.memory.session_id = mnemo_str{nullptr, 0};
    f.memory.source_session = mnemo_str{nullptr, 0};
    f.memory.source_seq = 0;
    f.memory.embedding = MNEMO_EMBEDDING_PENDING;
    f.memory.embedding_model = mnemo_str{nullptr, 0};
    f.memory.vector = mnemo_vector{nullptr, 0};
    f.memory.expires_at_us = 0;
    std::string line = encode_record(f.record);
    EXPECT_NE(line.find(R"("source":null)"), std::string::npos) << line;
    EXPECT_NE(line.find(R"("vector":null)"), std::string::npos) << line;
    JsonlRecord back;
    ASSERT_EQ(decode_record(line, back), std::nullopt) << line;
    EXPECT_FALSE(back.memory.session_id);
    EXPECT_FALSE(back.memory.source_session);
    EXPECT_FALSE(back.memory.embedding_model);
    EXPECT_TRUE(back.memory.vector.empty());
    EXPECT_EQ(back.memory.embedding, MNEMO_EMBEDDING_PENDING);
    EXPECT_EQ(back.memory.expires_at_us, 0);
}

// The fixture's line with one field's text `field` replaced.
std::optional<std::string> decode_with(const std::string& field, const std::string& replacement,
                                       const DecodeLimits& limits = {}) {
    Fixture f;
    std::string line = encode_record(f.record);
    const size_t at = line.find(field);
    EXPECT_NE(at, std::string::npos) << field << " in " << line;
    if (at != std::string::npos) line.replace(at, field.size(), replacement);
    JsonlRecord out;
    return decode_record(line, out, limits);
}

TEST(ExportJsonlMemory, ChecksTheRulesOfAMemoryWriteNamingTheField) {
    const std::string line = encode_record(Fixture().record);
    const size_t vector_at = line.find("\"vector\":[");
    ASSERT_NE(vector_at, std::string::npos) << line;
    const std::string kVector = line.substr(vector_at, line.find(']', vector_at) + 1 - vector_at);
    EXPECT_EQ(decode_with(R"("namespace":"travel:eu")", R"("namespace":"no spaces")"),
              "field \"namespace\": 'no spaces' has a character outside [A-Za-z0-9._:@-]");
    EXPECT_EQ(decode_with(R"("id":"m-1")", R"("id":"search")"),
              "field \"id\": 'search' is reserved (it names the recall route); choose another id");
    EXPECT_EQ(decode_with(R"("text":"Prefers  AISLE\nseats \"always\" ☃")", R"("text":"")"),
              "field \"text\": the text is empty; a memory needs 1 byte of text or more");
    EXPECT_EQ(decode_with(R"("text":"Prefers  AISLE\nseats \"always\" ☃")", R"("text":"12345")", DecodeLimits{4}),
              "field \"text\": 5 bytes is over memory.max_text_bytes (4) of this daemon; raise it to import this "
              "memory");
    EXPECT_EQ(decode_with(kVector, R"("vector":[1,"x"])"), "field \"vector[1]\": expected a number");
    EXPECT_EQ(decode_with(kVector, R"("vector":[1,1e39])"), "field \"vector[1]\": 1e+39 is not a finite 32-bit number");
    EXPECT_EQ(decode_with(kVector, R"("vector":[])"),
              "field \"vector\": the vector is empty; write null for a memory without one");
    EXPECT_EQ(decode_with(kVector, R"("vector":null)"),
              "field \"vector\": a memory whose embedding is \"ready\" needs its vector");
    EXPECT_EQ(decode_with(R"("embedding":"ready")", R"("embedding":"done")"),
              "field \"embedding\": expected \"none\", \"pending\", \"ready\" or \"failed\"");
    EXPECT_EQ(decode_with(R"("embedding":"ready")", R"("embedding":"none")"),
              "field \"vector\": a memory whose embedding is \"none\" holds no vector; write null");
    EXPECT_EQ(decode_with(R"("metadata":{"k" : [1, 2.50], "n":null})", R"("metadata":[1])"),
              "field \"metadata\": expected an object");
    EXPECT_EQ(decode_with(R"("source":{"session":"s1","seq":7})", R"("source":{"session":"s1"})"),
              "field \"source\": expected null or {\"session\": a session id, \"seq\": 1 or more}");
    EXPECT_EQ(decode_with(R"("created_at_us":1790000000000001)", R"("created_at_us":"now")"),
              "field \"created_at_us\": expected an integer");
    EXPECT_EQ(
        decode_with(R"("session_id":"s1")", R"("session_id":"a b")").value_or("").rfind("field \"session_id\": ", 0),
        0u);
    EXPECT_EQ(decode_with(R"("expires_at_us":1800000000000000)", R"("expires_at_us":1800000000000000,"key":41)"),
              "field \"key\": is not a field of this kind of record");
}

}  // namespace
}  // namespace mnemo::core
