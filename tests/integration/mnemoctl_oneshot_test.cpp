// mnemoctl -e / -f / piped stdin against the fake console: what is sent, what is
// printed, exit codes 0, 1 and 2, and how the socket is found.
#include "mnemoctl_fixture.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

namespace mnemo::integration {
namespace {

const char* kRowsJson =
    R"([[{"app":"shop","user":"u1","id":"s1","events":3,"updated_at":"2024-05-01T10:00:00.000Z",)"
    R"("expires_at":"2024-05-02T10:00:00.000Z"},{"app":"shop","user":"alice","id":"s22","events":120,)"
    R"("updated_at":"2024-05-01T11:00:00.000Z","expires_at":null}]])";

TEST_F(MnemoctlFakeTest, ChunkFromCommandLinePrintsItsValue) {
    fake_->answer_result("return 6 * 7", "[42]");
    auto run = ctl({"-e", "return 6 * 7"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "42\n");
    EXPECT_EQ(run.err, "");
    EXPECT_EQ(fake_->chunks(), (std::vector<std::string>{"=(command line)\nreturn 6 * 7"}));
}

TEST_F(MnemoctlFakeTest, ChunkFromFileIsNamedAfterIt) {
    std::string script = dir_.write("report.lua", "#!/usr/bin/env mnemoctl\nlocal n = 2\nreturn n, 'two'\n");
    fake_->answer_result("\nlocal n = 2\nreturn n, 'two'\n", R"([2,"two"])");
    auto run = ctl({"-f", script});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "2\ntwo\n");
    ASSERT_EQ(fake_->chunks().size(), 1u);
    EXPECT_EQ(fake_->chunks()[0], "@" + script + "\n\nlocal n = 2\nreturn n, 'two'\n");
}

TEST_F(MnemoctlFakeTest, MissingScriptFileIsNamed) {
    auto run = ctl({"-f", dir_.path() + "/none.lua"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.err, "mnemoctl: cannot read " + dir_.path() + "/none.lua: No such file or directory\n");
    EXPECT_TRUE(fake_->chunks().empty());
}

TEST_F(MnemoctlFakeTest, PipedStdinIsOneChunk) {
    fake_->answer_result("x = 1\nreturn x + 1\n", "[2]");
    auto run = ctl({}, "x = 1\nreturn x + 1\n");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "2\n");
    EXPECT_EQ(fake_->chunks(), (std::vector<std::string>{"=stdin\nx = 1\nreturn x + 1\n"}));
}

TEST_F(MnemoctlFakeTest, PrintsComeFirstThenTheResult) {
    fake_->answer("for i = 1, 2 do print('line', i) end return 'done'",
                  {{"print", "line\t1"}, {"print", "line\t2"}, {"result", R"(["done"])"}});
    auto run = ctl({"-e", "for i = 1, 2 do print('line', i) end return 'done'"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "line\t1\nline\t2\ndone\n");
}

TEST_F(MnemoctlFakeTest, NothingReturnedPrintsNothing) {
    fake_->answer_result("x = 1", "[]");
    auto run = ctl({"-e", "x = 1"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "");
}

TEST_F(MnemoctlFakeTest, LuaErrorExitsOneWithTheMessage) {
    fake_->answer("error('boom')", {{"error", "(command line):1: boom"}});
    auto run = ctl({"-e", "error('boom')"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, "error: (command line):1: boom\n");
}

TEST_F(MnemoctlFakeTest, SessionRowsAsTable) {
    fake_->answer_result("return sessions.list{app=\"shop\"}", kRowsJson);
    auto run = ctl({"-e", "return sessions.list{app=\"shop\"}"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out,
              "app   user   id   events  updated_at                expires_at\n"
              "----  -----  ---  ------  ------------------------  ------------------------\n"
              "shop  u1     s1        3  2024-05-01T10:00:00.000Z  2024-05-02T10:00:00.000Z\n"
              "shop  alice  s22     120  2024-05-01T11:00:00.000Z  nil\n");
}

TEST_F(MnemoctlFakeTest, JsonPrintsOneDocumentPerValue) {
    std::string rows(kRowsJson);
    rows = rows.substr(1, rows.size() - 2);  // the rows array alone, without the result's brackets
    fake_->answer_result("return sessions.list{app=\"shop\"}, nil, 'x'", "[" + rows + ", null, \"x\"]");
    auto run = ctl({"--json", "-e", "return sessions.list{app=\"shop\"}, nil, 'x'"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, rows + "\nnull\n\"x\"\n");
}

TEST_F(MnemoctlFakeTest, JsonOfNothingIsNothingAndNilIsNull) {
    fake_->answer_result("x = 1", "[]");
    fake_->answer_result("return nil", "[null]");
    EXPECT_EQ(ctl({"--json", "-e", "x = 1"}).out, "");
    EXPECT_EQ(ctl({"--json", "-e", "return nil"}).out, "null\n");
}

TEST_F(MnemoctlFakeTest, MissingSocketExitsTwoNamingThePath) {
    std::string path = dir_.path() + "/run/mnemod/admin.sock";
    auto run = run_mnemoctl(CtlRun{{"--socket", path, "-e", "return 1"}, "", "", {}});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.err, "mnemoctl: cannot connect to " + path + ": No such file or directory\n");
}

TEST_F(MnemoctlFakeTest, SocketNobodyListensOnExitsTwo) {
    std::string path = dir_.path() + "/stale.sock";
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ::close(fd);  // the file stays, nobody listens
    auto run = run_mnemoctl(CtlRun{{"--socket", path, "-e", "return 1"}, "", "", {}});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.err, "mnemoctl: cannot connect to " + path + ": Connection refused\n");
}

TEST_F(MnemoctlFakeTest, RefusedPeerExitsOneWithTheReason) {
    fake_->refuse("uid 1234 is not root, mnemod's uid, or a member of admin_group");
    auto run = ctl({"-e", "return 1"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.err, "mnemoctl: mnemod on " + socket_path() +
                           " refused the console: uid 1234 is not root, mnemod's uid, or a member of admin_group\n");
}

TEST_F(MnemoctlFakeTest, ConnectionLostDuringAChunkExitsTwo) {
    fake_->answer("sweep()", {{"print", "sweeping"}, {"close", ""}});
    auto run = ctl({"-e", "sweep()"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.out, "sweeping\n");
    EXPECT_EQ(run.err, "mnemoctl: mnemod closed the connection on " + socket_path() + "\n");
}

TEST_F(MnemoctlFakeTest, SocketFromTheConfigInTheWorkingDirectory) {
    dir_.write("mnemod.yaml", "server:\n  admin_socket: ./admin.sock\n");
    fake_->answer_result("return 1", "[1]");
    auto run = run_mnemoctl(CtlRun{{"-e", "return 1"}, "", dir_.path(), {}});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "1\n");
}

TEST_F(MnemoctlFakeTest, SocketFromTheConfigFlag) {
    TempDir elsewhere;
    std::string config = dir_.write("other.yaml", "server:\n  admin_socket: ./admin.sock\n");
    fake_->answer_result("return 1", "[1]");
    auto run = run_mnemoctl(CtlRun{{"--config", config, "-e", "return 1"}, "", elsewhere.path(), {}});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "1\n");
}

TEST_F(MnemoctlFakeTest, WithoutConfigTheRunFolderSocket) {
    if (std::filesystem::exists("/etc/mnemod/mnemod.yaml")) {
        GTEST_SKIP() << "/etc/mnemod/mnemod.yaml exists: mnemoctl would take the installed daemon's socket";
    }
    TempDir work;
    std::filesystem::create_directories(work.path() + "/run");
    FakeConsole local(work.path() + "/run/admin.sock");
    local.answer_result("return 'local'", R"(["local"])");
    auto run = run_mnemoctl(CtlRun{{"-e", "return 'local'"}, "", work.path(), {}});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "local\n");
}

TEST_F(MnemoctlFakeTest, UnreadableConfigIsNamed) {
    auto run = run_mnemoctl(CtlRun{{"--config", dir_.path() + "/none.yaml", "-e", "return 1"}, "", "", {}});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.err,
              "mnemoctl: cannot read the config " + dir_.path() + "/none.yaml (give the socket with --socket PATH)\n");
}

TEST_F(MnemoctlFakeTest, HelpListsTheOptions) {
    auto run = run_mnemoctl(CtlRun{{"--help"}, "", "", {}});
    EXPECT_EQ(run.exit_code, 0);
    for (const char* option : {"--socket", "--config", "-e", "-f", "--json", "--help"}) {
        EXPECT_NE(run.out.find(option), std::string::npos) << option << " missing from:\n" << run.out;
    }
}

}  // namespace
}  // namespace mnemo::integration
