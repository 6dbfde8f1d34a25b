// mnemoctl against the real mnemod: its console server on server.admin_socket
// (base_config puts it at <dir>/admin.sock).
#include "fixture.h"
#include "mnemoctl_process.h"

#include <simdjson.h>

#include <fstream>
#include <set>
#include <sstream>

namespace mnemo::integration {
namespace {

class MnemoctlDaemonTest : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }
    std::string admin_socket() const { return daemon_->dir() + "/admin.sock"; }
    CtlResult ctl(std::vector<std::string> args) {
        args.insert(args.begin(), {"--socket", admin_socket()});
        return run_mnemoctl(CtlRun{args, "", "", {}});
    }
};

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::vector<std::string> words_of(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

TEST_F(MnemoctlDaemonTest, ChunkFromCommandLine) {
    auto run = ctl({"-e", "return 6 * 7"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "42\n");
    EXPECT_EQ(run.err, "");
}

TEST_F(MnemoctlDaemonTest, PrintsThenValues) {
    auto run = ctl({"-e", "print('a', 1) print('b') return 'x', nil, {n = 2}"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "a\t1\nb\nx\nnil\n{ n = 2 }\n");
}

TEST_F(MnemoctlDaemonTest, LuaErrorExitsOneWithTheChunkLine) {
    auto run = ctl({"-e", "local x = 1\nerror('boom')"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, "error: (command line):2: boom\n");
}

TEST_F(MnemoctlDaemonTest, FileChunkErrorsNameTheFile) {
    TempDir dir;
    std::string script = dir.write("broken.lua", "local n = 1\n\nreturn n + nil\n");
    auto run = ctl({"-f", script});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.err.rfind("error: " + script + ":3: ", 0), 0u) << run.err;
}

TEST_F(MnemoctlDaemonTest, JsonOutput) {
    auto run = ctl({"--json", "-e", "return 1, nil, {}, {1, 2}, {a = 'b'}"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "1\nnull\n{}\n[1,2]\n{\"a\":\"b\"}\n");
    EXPECT_EQ(ctl({"--json", "-e", "local x = 1"}).out, "");
}

TEST_F(MnemoctlDaemonTest, SessionsListAsTable) {
    create_session("s1");
    create_session("s2");
    append_text("s2", "hello");
    auto run = ctl({"-e", "return sessions.list{app=\"shop\"}"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto lines = lines_of(run.out);
    ASSERT_EQ(lines.size(), 4u) << run.out;
    auto header = words_of(lines[0]);
    EXPECT_EQ(std::set<std::string>(header.begin(), header.end()),
              (std::set<std::string>{"app", "user", "id", "events", "updated_at", "expires_at"}))
        << run.out;
    EXPECT_EQ(lines[1].find_first_not_of("- "), std::string::npos) << run.out;
    std::set<std::string> ids;
    for (size_t row = 2; row < 4; ++row) {
        auto cells = words_of(lines[row]);
        ASSERT_EQ(cells.size(), header.size()) << run.out;
        for (size_t i = 0; i < header.size(); ++i) {
            if (header[i] == "id") ids.insert(cells[i]);
            if (header[i] == "app") {
                EXPECT_EQ(cells[i], "shop");
            }
        }
        // Every row is as long as the rule under the header, or shorter only by trailing blanks.
        EXPECT_LE(lines[row].size(), lines[1].size()) << run.out;
    }
    EXPECT_EQ(ids, (std::set<std::string>{"s1", "s2"}));
}

TEST_F(MnemoctlDaemonTest, SessionsListAsJsonRows) {
    create_session("s1");
    auto run = ctl({"--json", "-e", "return sessions.list{app=\"shop\"}"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    simdjson::dom::parser parser;
    simdjson::dom::array rows;
    ASSERT_EQ(parser.parse(run.out).get_array().get(rows), simdjson::SUCCESS) << run.out;
    ASSERT_EQ(rows.size(), 1u);
    std::string_view id;
    EXPECT_EQ(rows.at(0)["id"].get(id), simdjson::SUCCESS);
    EXPECT_EQ(id, "s1");
}

TEST_F(MnemoctlDaemonTest, HelpListsTheAdminApi) {
    auto run = ctl({"-e", "return help()"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    for (const char* name : {"stats()", "sessions.list", "sweep()"}) {
        EXPECT_NE(run.out.find(name), std::string::npos) << name << " not in:\n" << run.out;
    }
}

TEST_F(MnemoctlDaemonTest, SocketFromTheDaemonsConfig) {
    auto run = run_mnemoctl(CtlRun{{"--config", daemon_->config_path(), "-e", "return 'found'"}, "", "", {}});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "found\n");
}

TEST_F(MnemoctlDaemonTest, InteractiveFunctionCompletionAndHistory) {
    TempDir home;
    PtySession session({"--socket", admin_socket()}, home.path());
    ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
    session.send("function f(x)\r");
    ASSERT_TRUE(session.wait_for_prompt("mnemo>> ")) << session.screen();
    session.send("return x*2\rend\r");
    ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
    session.send("f(21)\r");
    ASSERT_TRUE(session.wait_for("\r\n42\r\n")) << session.screen();
    ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
    session.send("\x1b[A\r");  // up arrow: f(21) again
    ASSERT_TRUE(session.wait_for("\r\n42\r\n", 2)) << session.screen();
    ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
    session.send("sessions.\t\t");
    for (const char* name : {"sessions.list", "sessions.get", "sessions.delete", "sessions.count"}) {
        ASSERT_TRUE(session.wait_for(name)) << name << " not listed:\n" << session.screen();
    }
    session.send("count{app=\"shop\"}\r");
    ASSERT_TRUE(session.wait_for("\r\n0\r\n")) << session.screen();
    ASSERT_TRUE(session.wait_for_prompt("mnemo> ")) << session.screen();
    session.send("\x04");
    EXPECT_EQ(session.wait_exit(), 0) << session.screen();
    std::ifstream history(home.path() + "/.mnemoctl_history");
    std::ostringstream text;
    text << history.rdbuf();
    EXPECT_EQ(text.str(), "function f(x)\nreturn x*2\nend\nf(21)\nsessions.count{app=\"shop\"}\n");
}

}  // namespace
}  // namespace mnemo::integration
