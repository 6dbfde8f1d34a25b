// The interactive console on a pseudo-terminal against the fake console:
// prompts, multi-line chunks, history (recall and file), tab completion.
#include "mnemoctl_fixture.h"

#include <fstream>
#include <sstream>

namespace mnemo::integration {
namespace {

constexpr const char* kUp = "\x1b[A";
constexpr const char* kNames = "help\nstats\nsweep\nsessions.list\nsessions.get\nsessions.delete\nsessions.count\n";

class MnemoctlConsoleTest : public MnemoctlFakeTest {
protected:
    std::unique_ptr<PtySession> open_console() {
        auto session = std::make_unique<PtySession>(std::vector<std::string>{"--socket", socket_path()}, dir_.path());
        EXPECT_TRUE(session->wait_for("mnemo> ")) << session->screen();
        return session;
    }
    std::string history_file() const {
        std::ifstream file(dir_.path() + "/.mnemoctl_history");
        std::ostringstream text;
        text << file.rdbuf();
        return text.str();
    }
    // Ctrl-D at the prompt ends the console with 0.
    void leave(PtySession& session) {
        ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
        session.send("\x04");
        EXPECT_EQ(session.wait_exit(), 0) << session.screen();
    }
};

TEST_F(MnemoctlConsoleTest, BannerComesFromHello) {
    auto session = open_console();
    EXPECT_NE(session->screen().find("mnemod 0.0.0-fake (storage: fake) on " + socket_path()), std::string::npos)
        << session->screen();
    leave(*session);
}

TEST_F(MnemoctlConsoleTest, MultiLineFunctionThenCall) {
    fake_->answer_result("function f(x)\nreturn x*2\nend", "[]");
    fake_->answer_result("return f(21);", "[42]");
    auto session = open_console();
    session->send("function f(x)\r");
    ASSERT_TRUE(session->wait_for("mnemo>> ")) << session->screen();
    session->send("return x*2\r");
    ASSERT_TRUE(session->wait_for("mnemo>> ", 2)) << session->screen();
    session->send("end\r");
    ASSERT_TRUE(session->wait_for("mnemo> ", 2)) << session->screen();
    session->send("f(21)\r");
    ASSERT_TRUE(session->wait_for("\r\n42\r\n")) << session->screen();
    EXPECT_EQ(fake_->chunks(),
              (std::vector<std::string>{"=console\nfunction f(x)\nreturn x*2\nend", "=console\nreturn f(21);"}));
    leave(*session);
}

TEST_F(MnemoctlConsoleTest, LuaErrorIsShownAndTheConsoleGoesOn) {
    fake_->answer("return error('boom');", {{"error", "console:1: boom"}});
    fake_->answer_result("return 1+1;", "[2]");
    auto session = open_console();
    session->send("error('boom')\r");
    ASSERT_TRUE(session->wait_for("error: console:1: boom")) << session->screen();
    session->send("1+1\r");
    ASSERT_TRUE(session->wait_for("\r\n2\r\n")) << session->screen();
    leave(*session);
}

TEST_F(MnemoctlConsoleTest, UpArrowRecallsThePreviousLine) {
    fake_->answer_result("return 6*7;", "[42]");
    fake_->answer_result("x = 1", "[]");
    auto session = open_console();
    session->send("6*7\r");
    ASSERT_TRUE(session->wait_for("\r\n42\r\n")) << session->screen();
    session->send("x = 1\r");
    ASSERT_TRUE(session->wait_for("mnemo> ", 3)) << session->screen();
    session->send(std::string(kUp) + kUp + "\r");
    ASSERT_TRUE(session->wait_for("\r\n42\r\n", 2)) << session->screen();
    EXPECT_EQ(fake_->chunks(),
              (std::vector<std::string>{"=console\nreturn 6*7;", "=console\nx = 1", "=console\nreturn 6*7;"}));
    leave(*session);
    EXPECT_EQ(history_file(), "6*7\nx = 1\n6*7\n");
}

TEST_F(MnemoctlConsoleTest, HistoryFileIsReadAtStart) {
    dir_.write(".mnemoctl_history", "stats()\n6*7\n");
    fake_->answer_result("return 6*7;", "[42]");
    auto session = open_console();
    session->send(std::string(kUp) + "\r");
    ASSERT_TRUE(session->wait_for("\r\n42\r\n")) << session->screen();
    leave(*session);
    EXPECT_EQ(history_file(), "stats()\n6*7\n");  // a repeat of the last line is not kept again
}

TEST_F(MnemoctlConsoleTest, TabCompletesDottedNames) {
    fake_->set_names(kNames);
    fake_->answer_result("return sessions.count{};", "[7]");
    auto session = open_console();
    // libedit redraws only the completed tail ("unt"), so what counts is the chunk sent.
    session->send("sessions.co\t{}\r");
    ASSERT_TRUE(session->wait_for("\r\n7\r\n")) << session->screen();
    EXPECT_EQ(fake_->chunks(), (std::vector<std::string>{"=console\nreturn sessions.count{};"}));
    EXPECT_GE(fake_->names_requests(), 1);
    leave(*session);
}

TEST_F(MnemoctlConsoleTest, TabTwiceListsTheMembers) {
    fake_->set_names(kNames);
    fake_->answer_result("return sessions.list{};", R"([[{"app":"shop","id":"s1"}]])");
    auto session = open_console();
    session->send("sessions.\t\t");
    for (const char* name : {"sessions.list", "sessions.get", "sessions.delete", "sessions.count"}) {
        ASSERT_TRUE(session->wait_for(name)) << name << " not listed:\n" << session->screen();
    }
    EXPECT_EQ(session->count("stats"), 0u) << session->screen();
    session->send("list{}\r");
    ASSERT_TRUE(session->wait_for("app   id\r\n----  --\r\nshop  s1\r\n")) << session->screen();
    leave(*session);
}

}  // namespace
}  // namespace mnemo::integration
