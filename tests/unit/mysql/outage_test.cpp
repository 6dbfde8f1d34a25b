// The database goes away and comes back: every call answers unavailable
// while it is down (never hangs, never crashes), nothing committed before is
// lost, and the same open backend serves again once the server is back,
// without being reopened.
#include "mysql_backend.h"

namespace mnemo::mysql::test {
namespace {

using OutageTest = MysqlTest;

TEST_F(OutageTest, UnavailableWhileDownAndServingAgainAfterARestart) {
    Backend backend(database_);
    ASSERT_TRUE(backend);
    ASSERT_EQ(backend.create("s1").rc, MNEMO_OK);
    ASSERT_EQ(backend.append("s1", "before").rc, MNEMO_OK);

    server().stop();
    Answer ping = backend.ping();
    EXPECT_EQ(ping.rc, MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(ping.err.message).find(server().socket()), std::string::npos) << ping.err.message;
    EXPECT_EQ(backend.append("s1", "during").rc, MNEMO_E_UNAVAILABLE);
    EXPECT_EQ(backend.get("s1").rc, MNEMO_E_UNAVAILABLE);

    std::string error;
    ASSERT_TRUE(server().start(&error)) << error;
    EXPECT_EQ(backend.ping().rc, MNEMO_OK);
    Answer after = backend.append("s1", "after");
    ASSERT_EQ(after.rc, MNEMO_OK) << after.err.message;
    Answer read = backend.get("s1");
    ASSERT_EQ(read.rc, MNEMO_OK);
    EXPECT_EQ(read.out.seqs(), (std::vector<int64_t>{1, 2})) << "the event before the outage is kept";
}

}  // namespace
}  // namespace mnemo::mysql::test
