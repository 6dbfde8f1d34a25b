#include "completion.h"
#include "history_file.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace mnemo::admin {
namespace {

using test::TempDir;

const std::vector<std::string> kNames = {"stats",          "sessions.list", "sessions.get", "sessions.delete",
                                         "sessions.count", "search",        "sweep",        "sessions.list"};

TEST(Completions, DottedPrefixOffersTheMembers) {
    EXPECT_EQ(completions("sessions.", kNames),
              (std::vector<std::string>{"sessions.count", "sessions.delete", "sessions.get", "sessions.list"}));
    EXPECT_EQ(completions("sessions.li", kNames), (std::vector<std::string>{"sessions.list"}));
}

TEST(Completions, PlainPrefixAndNoMatch) {
    EXPECT_EQ(completions("sw", kNames), (std::vector<std::string>{"sweep"}));
    EXPECT_EQ(completions("se", kNames), (std::vector<std::string>{"search", "sessions.count", "sessions.delete",
                                                                   "sessions.get", "sessions.list"}));
    EXPECT_TRUE(completions("zz", kNames).empty());
    EXPECT_EQ(completions("", kNames).size(), 7u);  // every name once
}

TEST(Completions, DotAndUnderscoreDoNotBreakWords) {
    std::string breaks = kWordBreakCharacters;
    EXPECT_EQ(breaks.find('.'), std::string::npos);
    EXPECT_EQ(breaks.find('_'), std::string::npos);
    for (char c : std::string(" ({,=")) EXPECT_NE(breaks.find(c), std::string::npos) << c;
}

TEST(HistoryFile, MissingFileIsEmpty) {
    TempDir dir;
    EXPECT_TRUE(load_history(dir.path() + "/none").empty());
}

TEST(HistoryFile, AppendedLinesComeBackInOrder) {
    TempDir dir;
    std::string path = dir.path() + "/.mnemoctl_history";
    ASSERT_TRUE(append_history_line(path, "function f(x)"));
    ASSERT_TRUE(append_history_line(path, "f(21)"));
    EXPECT_EQ(load_history(path), (std::vector<std::string>{"function f(x)", "f(21)"}));
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
}

TEST(HistoryFile, BlankAndRepeatedLinesAreNotKept) {
    TempDir dir;
    std::string path = dir.write(".mnemoctl_history", "a\na\n\n  \nb\na\n");
    EXPECT_EQ(load_history(path), (std::vector<std::string>{"a", "b", "a"}));
    EXPECT_FALSE(worth_keeping("x", "x"));
    EXPECT_FALSE(worth_keeping(" \t", ""));
    EXPECT_TRUE(worth_keeping("x", "y"));
}

TEST(HistoryFile, UnwritablePlaceIsReported) {
    TempDir dir;
    EXPECT_FALSE(append_history_line(dir.path() + "/no/such/folder/history", "x"));
}

TEST(HistoryFile, LivesInHome) {
    const char* saved = std::getenv("HOME");
    std::string old = saved ? saved : "";
    ::setenv("HOME", "/home/tester", 1);
    EXPECT_EQ(default_history_path(), "/home/tester/.mnemoctl_history");
    if (saved)
        ::setenv("HOME", old.c_str(), 1);
    else
        ::unsetenv("HOME");
}

}  // namespace
}  // namespace mnemo::admin
