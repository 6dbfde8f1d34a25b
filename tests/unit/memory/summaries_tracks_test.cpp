// summary_put, summary_list, track_append and track_list.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

class SummariesTracks : public MemoryTest {
protected:
    void SetUp() override {
        MemoryTest::SetUp();
        create("u1", "s1", 1000);
        mnemo_event b = event("b", "assistant", "2");
        b.filter_key = s("x");
        mnemo_event d = event("d", "assistant", "4");
        d.filter_key = s("x/y");
        append("u1", "s1", {event("a", "user", "1"), b, event("c", "user", "3"), d});
    }
    int put(const char* filter_key, int64_t up_to, int64_t covered, Rows* out = nullptr,
            mnemo_error* err_out = nullptr) {
        mnemo_summary_put_req req{key("shop", "u1", "s1"), now, s(filter_key), s("text"), up_to, s("client"), covered};
        Recorder sink;
        mnemo_error err{};
        int rc = ops().summary_put(backend, &req, sink.get(), &err);
        if (out) *out = sink.out();
        if (err_out) *err_out = err;
        return rc;
    }
    Rows list() {
        mnemo_summary_list_req req{key("shop", "u1", "s1"), now};
        Recorder sink;
        EXPECT_EQ(ops().summary_list(backend, &req, sink.get(), nullptr), MNEMO_OK);
        return sink.out();
    }
    TrackRow track(const char* name, const char* payload) {
        mnemo_track_append_req req{key("shop", "u1", "s1"), s(name), now, s(payload), now - 1};
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().track_append(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
        EXPECT_EQ(sink.out().tracks.size(), 1u);
        return sink.out().tracks.empty() ? TrackRow{} : sink.out().tracks[0];
    }
    Rows tracks(const char* name, int64_t after, int64_t limit) {
        mnemo_track_list_req req{key("shop", "u1", "s1"), s(name), now, after, limit};
        Recorder sink;
        EXPECT_EQ(ops().track_list(backend, &req, sink.get(), nullptr), MNEMO_OK);
        return sink.out();
    }
};

TEST_F(SummariesTracks, FirstSummaryStartsAtOneAndDefaultsToLastSeq) {
    Rows out;
    ASSERT_EQ(put("", 0, -1, &out), MNEMO_OK);
    ASSERT_EQ(out.summaries.size(), 1u);
    EXPECT_EQ(out.summaries[0].from_seq, 1);
    EXPECT_EQ(out.summaries[0].up_to_seq, 4);
    EXPECT_EQ(out.summaries[0].events_covered, 4);
    EXPECT_EQ(out.summaries[0].source, "client");
    EXPECT_EQ(out.summaries[0].text, "text");
    EXPECT_EQ(out.summaries[0].created_at_us, now);
    EXPECT_EQ(out.version, 3);
    EXPECT_EQ(out.order, "UC");
}

TEST_F(SummariesTracks, NextSummaryStartsAfterThePreviousOfItsKey) {
    ASSERT_EQ(put("", 2, -1), MNEMO_OK);
    Rows out;
    ASSERT_EQ(put("", 4, -1, &out), MNEMO_OK);
    EXPECT_EQ(out.summaries[0].from_seq, 3);
    EXPECT_EQ(out.summaries[0].events_covered, 2);
    ASSERT_EQ(put("x", 4, -1, &out), MNEMO_OK);
    EXPECT_EQ(out.summaries[0].from_seq, 1) << "chains are per filter key";
    EXPECT_EQ(out.summaries[0].events_covered, 2) << "x and x/y";
}

TEST_F(SummariesTracks, EventsCoveredGivenIsKept) {
    Rows out;
    ASSERT_EQ(put("", 4, 1, &out), MNEMO_OK);
    EXPECT_EQ(out.summaries[0].events_covered, 1);
}

TEST_F(SummariesTracks, EventsCoveredCountsVisibleEventsOnly) {
    mnemo_rewind_req rewind{key("shop", "u1", "s1"), now, 1, 0, 0, 0};
    ASSERT_EQ(ops().events_rewind(backend, &rewind, nullptr, nullptr), MNEMO_OK);
    Rows out;
    ASSERT_EQ(put("", 4, -1, &out), MNEMO_OK);
    EXPECT_EQ(out.summaries[0].events_covered, 2);
}

TEST_F(SummariesTracks, UpToOutsideTheRangeIsInvalid) {
    mnemo_error err{};
    EXPECT_EQ(put("", 5, -1, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message,
                 "up_to_seq 5 of a summary for filter key \"\" of session u1/s1 must be within 1..4 (after the "
                 "previous summary, up to the last seq)");
    ASSERT_EQ(put("", 3, -1), MNEMO_OK);
    EXPECT_EQ(put("", 2, -1), MNEMO_E_INVALID);
    EXPECT_EQ(get("u1", "s1").sessions[0].version, 3) << "failed puts change nothing";
}

TEST_F(SummariesTracks, ListSendsTheLatestPerFilterKeyOrderedByKey) {
    put("x", 2, -1);
    put("", 1, -1);
    put("", 3, -1);
    Rows out = list();
    ASSERT_EQ(out.summaries.size(), 2u);
    EXPECT_EQ(out.summaries[0].filter_key, "");
    EXPECT_EQ(out.summaries[0].up_to_seq, 3);
    EXPECT_EQ(out.summaries[1].filter_key, "x");
}

TEST_F(SummariesTracks, TrackSeqsCountPerTrackAndLeaveVersionAlone) {
    EXPECT_EQ(track("progress", "{\"p\":1}").seq, 1);
    EXPECT_EQ(track("progress", "{\"p\":2}").seq, 2);
    TrackRow other = track("audit", "[1, 2]");
    EXPECT_EQ(other.seq, 1);
    EXPECT_EQ(other.payload_json, "[1, 2]");
    EXPECT_EQ(other.timestamp_us, now - 1);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].version, 2);
    EXPECT_EQ(got.sessions[0].event_count, 4) << "tracks are not events";
}

TEST_F(SummariesTracks, TrackWriteRefreshesSessionTtl) {
    now += 900;
    track("progress", "1");
    EXPECT_EQ(get_status("u1", "s1", now + 999), MNEMO_OK);
}

TEST_F(SummariesTracks, TrackListAfterSeqWithLimit) {
    for (const char* p : {"1", "2", "3", "4"}) track("t", p);
    Rows out = tracks("t", 1, 2);
    ASSERT_EQ(out.tracks.size(), 2u);
    EXPECT_EQ(out.tracks[0].seq, 2);
    EXPECT_EQ(out.tracks[1].payload_json, "3");
    EXPECT_EQ(tracks("t", 0, 0).tracks.size(), 4u);
    EXPECT_TRUE(tracks("none", 0, 0).tracks.empty());
}

}  // namespace
}  // namespace mnemo::memory_test
