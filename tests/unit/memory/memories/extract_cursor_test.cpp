// The extraction cursor (mnemo_extracted_req, memory.capture: extract) on
// every backend with memory ops: a session starts at 0, session_extracted
// moves it by compare-and-set without touching the session's version,
// updated_at or TTL, refuses a range outside the cursor..last_seq, and a
// session created again under the same id starts at 0. Rewind needs no
// rule: the events after it take seqs above the cursor.
#include "memories_fixture.h"

namespace mnemo::memories_test {
namespace {

using lifecycle_test::kNow;
using lifecycle_test::kSecond;

class ExtractCursor : public MemoriesTest {
protected:
    int extracted(const char* id, int64_t from_seq, int64_t up_to_seq, mnemo_error* err_out = nullptr,
                  int64_t at_us = kNow) {
        std::string app = "shop", user = "u1", session = id;
        mnemo_extracted_req req{{s(app), s(user), s(session)}, at_us, from_seq, up_to_seq};
        mnemo_error err{};
        int rc = ops().session_extracted(backend, &req, nullptr, &err);
        if (err_out) *err_out = err;
        return rc;
    }
    storage::SessionRow stored(const char* id) {
        auto answer = LifecycleTest::get("u1", id);
        EXPECT_EQ(answer.rc, MNEMO_OK) << answer.err.message;
        return answer.out.sessions.empty() ? storage::SessionRow{} : answer.out.sessions.front();
    }
};

TEST_F(ExtractCursor, ASessionStartsAtZeroAndTheCursorMovesByCompareAndSet) {
    ASSERT_NE(ops().session_extracted, nullptr);
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 5).rc, MNEMO_OK);
    auto before = stored("s1");
    EXPECT_EQ(before.extracted_seq, 0);
    EXPECT_EQ(before.last_seq, 5);

    ASSERT_EQ(extracted("s1", 0, 3, nullptr, kNow + kSecond), MNEMO_OK);
    auto after = stored("s1");
    EXPECT_EQ(after.extracted_seq, 3);
    EXPECT_EQ(after.version, before.version) << "the cursor is no client write";
    EXPECT_EQ(after.updated_at_us, before.updated_at_us);

    mnemo_error err{};
    EXPECT_EQ(extracted("s1", 0, 5, &err), MNEMO_E_CONFLICT) << "another extraction moved it to 3";
    EXPECT_NE(std::string(err.message).find("s1"), std::string::npos) << err.message;
    EXPECT_EQ(stored("s1").extracted_seq, 3);
    EXPECT_EQ(extracted("s1", 3, 5), MNEMO_OK);
    EXPECT_EQ(stored("s1").extracted_seq, 5);
}

TEST_F(ExtractCursor, ARangeOutsideCursorToLastSeqIsInvalid) {
    ASSERT_EQ(create("u1", "s2").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s2", 2).rc, MNEMO_OK);
    EXPECT_EQ(extracted("s2", 0, 3), MNEMO_E_INVALID) << "past last_seq";
    ASSERT_EQ(extracted("s2", 0, 2), MNEMO_OK);
    EXPECT_EQ(extracted("s2", 2, 1), MNEMO_E_INVALID) << "below the cursor";
    EXPECT_EQ(stored("s2").extracted_seq, 2);
}

TEST_F(ExtractCursor, AnAbsentOrDeletedSessionIsNotFound) {
    EXPECT_EQ(extracted("nope", 0, 0), MNEMO_E_NOT_FOUND);
    ASSERT_EQ(create("u1", "s3").rc, MNEMO_OK);
    ASSERT_EQ(LifecycleTest::remove("u1", "s3", false).rc, MNEMO_OK);
    EXPECT_EQ(extracted("s3", 0, 0), MNEMO_E_NOT_FOUND);
}

TEST_F(ExtractCursor, ASessionCreatedAgainUnderItsIdStartsAtZero) {
    ASSERT_EQ(create("u1", "s4").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s4", 3).rc, MNEMO_OK);
    ASSERT_EQ(extracted("s4", 0, 3), MNEMO_OK);
    ASSERT_EQ(LifecycleTest::remove("u1", "s4", true).rc, MNEMO_OK);
    ASSERT_EQ(create("u1", "s4").rc, MNEMO_OK);
    EXPECT_EQ(stored("s4").extracted_seq, 0);
}

TEST_F(ExtractCursor, EventsAfterARewindTakeSeqsAboveTheCursor) {
    ASSERT_EQ(create("u1", "s5").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s5", 4).rc, MNEMO_OK);
    ASSERT_EQ(extracted("s5", 0, 4), MNEMO_OK);
    ASSERT_EQ(rewind("u1", "s5", kNow).rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s5", 1).rc, MNEMO_OK);
    auto session = stored("s5");
    EXPECT_EQ(session.extracted_seq, 4);
    EXPECT_EQ(session.last_seq, 5) << "the new event is after the cursor, so it is extracted";
}

// An imported session keeps its cursor (an export carries it), so a moved
// or restored store does not hand the same events to the extractor again.
TEST_F(ExtractCursor, AnImportedSessionKeepsItsCursor) {
    ASSERT_NE(ops().import_records, nullptr);
    std::string app = "shop", user = "u1", id = "moved", metadata = "{}";
    mnemo_session session{};
    session.app = s(app);
    session.user = s(user);
    session.id = s(id);
    session.metadata_json = s(metadata);
    session.created_at_us = kNow;
    session.updated_at_us = kNow;
    session.version = 3;
    session.last_seq = 4;
    session.event_count = 0;
    session.extracted_seq = 3;
    mnemo_record record{};
    record.kind = MNEMO_RECORD_SESSION;
    record.key = mnemo_key{session.app, session.user, session.id};
    record.session = &session;
    mnemo_import_req req{kNow, &record, 1, 0};
    mnemo_error err{};
    ASSERT_EQ(ops().import_records(backend, &req, &err), MNEMO_OK) << err.message;
    EXPECT_EQ(stored("moved").extracted_seq, 3);
    EXPECT_EQ(extracted("moved", 3, 4), MNEMO_OK) << "the cursor moves on from where the export left it";
}

}  // namespace
}  // namespace mnemo::memories_test
