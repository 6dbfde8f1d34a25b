// Conformance: docs/api.md "Events", GET .../events.
#include "harness.h"

namespace mnemo::testing {
namespace {

class EventsRead : public Conformance {
protected:
    void SetUp() override {
        Conformance::SetUp();
        create("s1");
        append("s1", R"([{"author":"user","content":"u1"},{"author":"bot","content":"a1"},
                         {"author":"tool-x","role":"tool","content":"t1"},{"author":"user","content":"u2"},
                         {"author":"system","content":"y1"},{"author":"bot","content":"a2"}])");
    }
    std::vector<int64_t> seqs(const std::string& query) {
        auto reply = h->get(session("s1") + "/events" + query);
        EXPECT_EQ(reply.status, 200) << query << ": " << reply.body;
        std::vector<int64_t> out;
        if (reply.status != 200) return out;
        for (size_t i = 0; i < reply.size("/events"); ++i)
            out.push_back(reply.integer("/events/" + std::to_string(i) + "/seq"));
        return out;
    }
};

using Seqs = std::vector<int64_t>;

TEST_P(EventsRead, AllOldestFirst) {
    auto reply = h->get(session("s1") + "/events");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(seqs(""), (Seqs{1, 2, 3, 4, 5, 6}));
    EXPECT_TRUE(reply.is_null("/next_after_seq"));
    EXPECT_EQ(reply.string("/events/2/author"), "tool-x");
    EXPECT_FALSE(reply.has("/events/0/deleted_at"));
}

TEST_P(EventsRead, AfterSeqAndLimitPage) {
    EXPECT_EQ(seqs("?after_seq=4"), (Seqs{5, 6}));
    auto page = h->get(session("s1") + "/events?limit=4");
    EXPECT_EQ(page.size("/events"), 4u);
    EXPECT_EQ(page.integer("/next_after_seq"), 4);
    auto rest = h->get(session("s1") + "/events?limit=4&after_seq=4");
    EXPECT_EQ(rest.size("/events"), 2u);
    EXPECT_TRUE(rest.is_null("/next_after_seq")) << rest.body;
    EXPECT_EQ(seqs("?after_seq=6"), Seqs{});
    EXPECT_EQ(seqs("?limit=5000"), (Seqs{1, 2, 3, 4, 5, 6}));
}

TEST_P(EventsRead, RoleFilterCommaList) {
    EXPECT_EQ(seqs("?role=user"), (Seqs{1, 4}));
    EXPECT_EQ(seqs("?role=assistant,tool"), (Seqs{2, 3, 6}));
    EXPECT_EQ(seqs("?role=system&after_seq=1"), (Seqs{5}));
    EXPECT_EQ(seqs("?role=summary"), Seqs{});
    auto page = h->get(session("s1") + "/events?role=assistant&limit=1");
    EXPECT_EQ(page.size("/events"), 1u);
    EXPECT_EQ(page.integer("/next_after_seq"), 2);
}

TEST_P(EventsRead, IncludeDeletedAfterRewind) {
    ASSERT_EQ(h->post(session("s1") + "/rewind", R"({"turns":1})").status, 200);
    EXPECT_EQ(seqs(""), (Seqs{1, 2, 3}));
    EXPECT_EQ(seqs("?include_deleted=true"), (Seqs{1, 2, 3, 4, 5, 6}));
    auto all = h->get(session("s1") + "/events?include_deleted=true");
    EXPECT_TRUE(all.has("/events/3/deleted_at")) << all.body;
    EXPECT_FALSE(all.has("/events/2/deleted_at"));
    EXPECT_EQ(seqs("?include_deleted=false"), (Seqs{1, 2, 3}));
}

TEST_P(EventsRead, BadQueriesAre400) {
    for (const char* query : {"?limit=0", "?limit=-1", "?after_seq=-1", "?after_seq=x", "?role=robot", "?role=user,",
                              "?role=", "?role=user,,tool", "?include_deleted=yes", "?limit=%zz"}) {
        SCOPED_TRACE(query);
        expect_error(h->get(session("s1") + "/events" + query), 400, "invalid_argument");
    }
}

TEST_P(EventsRead, LimitAboveMaximumIsReducedTo1000) {
    reconfigure("limits: {event_limit: 0}\n");
    create("s1");
    for (int batch = 0; batch < 5; ++batch) {
        std::string events = "[";
        for (int i = 0; i < 201; ++i) events += std::string(i ? "," : "") + R"({"author":"user","content":1})";
        append("s1", events + "]");
    }
    auto reply = h->get(session("s1") + "/events?limit=5000");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(reply.size("/events"), 1000u);
    EXPECT_EQ(reply.integer("/next_after_seq"), 1000);
    EXPECT_EQ(h->get(session("s1") + "/events").size("/events"), 100u);  // the default limit
    EXPECT_EQ(h->get(session("s1") + "/events?after_seq=1000&limit=5000").size("/events"), 5u);
}

TEST_P(EventsRead, UnknownSessionIs404) {
    expect_error(h->get(session("nope") + "/events"), 404, "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, EventsRead, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
