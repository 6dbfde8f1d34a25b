// The Checkpointer (plugins/sqlite/checkpointer.h) on real files, linked in
// directly: with its hook on a writing connection, the WAL is copied back by
// its own thread once past 1,000 pages, and stays bounded when writes never
// pause, which passive checkpoints alone would not achieve.
#include "sqlite_fixture.h"
#include "checkpointer.h"
#include "options.h"

#include <chrono>
#include <filesystem>
#include <thread>

namespace mnemo::sqlite::test {
namespace {

class CheckpointerTest : public ::testing::Test {
protected:
    void SetUp() override {
        options_.path = dir_.file("c.db");
        writer_ = std::make_unique<Conn>(options_, Conn::Mode::ReadWrite);
        writer_->exec("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    }
    // One transaction of `rows` rows of 2 KiB: about that many WAL pages.
    void commit_rows(int rows) {
        writer_->exec("BEGIN IMMEDIATE");
        for (int i = 0; i < rows; ++i) Query(*writer_, "INSERT INTO rows (body) VALUES (?1)").args(body_).run();
        writer_->exec("COMMIT");
    }
    uintmax_t wal_bytes() const {
        std::error_code error;
        uintmax_t size = std::filesystem::file_size(options_.path + "-wal", error);
        return error ? 0 : size;
    }
    uintmax_t file_bytes() const { return std::filesystem::file_size(options_.path); }
    static bool eventually(const std::function<bool()>& done) {
        auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);  // ASan on a loaded machine
        while (std::chrono::steady_clock::now() < give_up) {
            if (done()) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return done();
    }

    TempDir dir_;
    Options options_;
    std::unique_ptr<Conn> writer_;
    std::string body_ = std::string(2048, 'x');
};

TEST_F(CheckpointerTest, ItsThreadCopiesTheWalBackOncePastAThousandPages) {
    Checkpointer checkpointer(options_);
    checkpointer.install(*writer_);
    commit_rows(500);
    EXPECT_EQ(checkpointer.background_runs(), 0) << "under 1,000 pages nothing is due";
    uintmax_t before = file_bytes();
    commit_rows(600);
    ASSERT_TRUE(eventually([&] { return checkpointer.background_runs() >= 1; }));
    EXPECT_GT(file_bytes(), before + 1000 * 2048) << "the rows reached the database file";
}

TEST_F(CheckpointerTest, TheWalStaysBoundedWhileWritesNeverPause) {
    Checkpointer checkpointer(options_);
    checkpointer.install(*writer_);
    uintmax_t largest = 0;
    for (int i = 0; i < 200; ++i) {  // ~100 MiB of rows, no pause between transactions
        commit_rows(128);
        largest = std::max(largest, wal_bytes());
    }
    uintmax_t page = 4096;
    EXPECT_LT(largest, (Checkpointer::kInlinePages + 2 * 128 + 200) * (page + 24));
    EXPECT_GE(checkpointer.background_runs(), 1);
}

}  // namespace
}  // namespace mnemo::sqlite::test
