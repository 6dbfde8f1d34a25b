// Summaries (from_seq chaining, events_covered, latest per filter key) and
// track events (per-track seqs, no version change, TTL refresh).
#include "sqlite_fixture.h"

namespace mnemo::sqlite::test {
namespace {

class SummariesTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_EQ(create("s1", {.ttl = 100 * kSecond}).rc, MNEMO_OK);
        std::vector<EventSpec> events(6);
        events[1].filter_key = "a";
        events[2].filter_key = "a/x";
        events[4].filter_key = "a";
        ASSERT_EQ(append("s1", events).rc, MNEMO_OK);
    }
    Answer track(const std::string& name, const std::string& payload, int64_t now = kNow) {
        const std::string& t = scratch_.emplace_back(name);
        const std::string& p = scratch_.emplace_back(payload);
        mnemo_track_append_req req{key("s1"), S(t), now, S(p), now};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().track_append(backend_, &req, sink, err); });
    }
    Answer tracks(const std::string& name, int64_t after_seq, int64_t limit) {
        const std::string& t = scratch_.emplace_back(name);
        mnemo_track_list_req req{key("s1"), S(t), kNow, after_seq, limit};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().track_list(backend_, &req, sink, err); });
    }
    std::deque<std::string> scratch_;
};

TEST_F(SummariesTest, FromSeqChainsPerFilterKeyAndCoveredCountsVisibleEvents) {
    Answer first = put_summary("s1", "", 3);
    ASSERT_EQ(first.rc, MNEMO_OK) << first.err.message;
    ASSERT_EQ(first.out.summaries.size(), 1u);
    EXPECT_EQ(first.out.summaries[0].from_seq, 1);
    EXPECT_EQ(first.out.summaries[0].events_covered, 3);
    EXPECT_EQ(first.out.summaries[0].source, "client");
    EXPECT_EQ(first.out.version, 3);
    Answer second = put_summary("s1", "", 0);  // 0: up to last_seq
    EXPECT_EQ(second.out.summaries.at(0).from_seq, 4);
    EXPECT_EQ(second.out.summaries.at(0).up_to_seq, 6);
    Answer branch = put_summary("s1", "a", 6);
    EXPECT_EQ(branch.out.summaries.at(0).from_seq, 1);
    EXPECT_EQ(branch.out.summaries.at(0).events_covered, 3) << "a and a/x, not the others";
    EXPECT_EQ(put_summary("s1", "a", 6, 42).rc, MNEMO_E_INVALID) << "below from_seq";
    EXPECT_EQ(put_summary("s1", "b", 7).rc, MNEMO_E_INVALID) << "above last_seq";
    EXPECT_EQ(put_summary("s1", "b", 2, 9).out.summaries.at(0).events_covered, 9) << "a given count is kept";

    mnemo_summary_list_req req{key("s1"), kNow};
    Answer listed;
    Recorder sink;
    ASSERT_EQ(ops().summary_list(backend_, &req, sink.get(), &listed.err), MNEMO_OK);
    listed.out = sink.out();
    ASSERT_EQ(listed.out.summaries.size(), 3u);
    EXPECT_EQ(listed.out.summaries[0].filter_key, "");
    EXPECT_EQ(listed.out.summaries[0].up_to_seq, 6);
    EXPECT_EQ(listed.out.summaries[0].from_seq, 4);
    EXPECT_EQ(listed.out.summaries[1].filter_key, "a");
    EXPECT_EQ(listed.out.summaries[2].filter_key, "b");
}

TEST_F(SummariesTest, TracksCountPerTrackKeepTheVersionAndRefreshTheTtl) {
    Answer one = track("tool", R"({"n": 1})");
    ASSERT_EQ(one.rc, MNEMO_OK) << one.err.message;
    EXPECT_EQ(one.out.tracks.at(0).seq, 1);
    EXPECT_EQ(track("tool", "2").out.tracks.at(0).seq, 2);
    EXPECT_EQ(track("other", "3").out.tracks.at(0).seq, 1);
    EXPECT_EQ(track("tool", "4", kNow + kSecond).out.tracks.at(0).seq, 3);
    Answer page = tracks("tool", 1, 1);
    ASSERT_EQ(page.out.tracks.size(), 1u);
    EXPECT_EQ(page.out.tracks[0].seq, 2);
    EXPECT_EQ(page.out.tracks[0].payload_json, Opt("2"));
    EXPECT_EQ(tracks("tool", 0, 0).out.tracks.size(), 3u);
    EXPECT_EQ(tracks("tool", 0, 0).out.tracks[0].payload_json, Opt(R"({"n": 1})"));
    const auto session = get("s1").out.sessions.at(0);
    EXPECT_EQ(session.version, 2) << "tracks are not versioned writes";
    EXPECT_EQ(session.expires_at_us, kNow + kSecond + 100 * kSecond);
    EXPECT_EQ(get("s1").out.events.size(), 6u) << "track events never appear among events";
}

}  // namespace
}  // namespace mnemo::sqlite::test
