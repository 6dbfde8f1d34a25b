// TermDocuments (plugins/sqlite/term_documents.h): the number of events
// holding each term, as count(*) of the term's MATCH says, read through a
// reader connection that keeps the counts while events_words stays the
// same and reads them again once a write (an indexed insert, a delete)
// changed it.
#include "sqlite_fixture.h"
#include "connection.h"
#include "migrations.h"
#include "options.h"

#include "core/plugin_host.h"
#include "host_services.h"

namespace mnemo::sqlite::test {
namespace {

class TermDocumentsTest : public ::testing::Test {
protected:
    void SetUp() override {
        options_.path = dir_.file("t.db");
        host::install(&core::plugin_host());  // the tokenizer of events_words reads the host's terms
        writer_ = std::make_unique<Conn>(options_, Conn::Mode::ReadWrite);
        for (const Migration& step : kMigrations) writer_->exec(step.sql);
        writer_->exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at) VALUES (1, 'a', 'u', 's', 0, 0)");
        writer_->search_backlog().load(*writer_);
        reader_ = std::make_unique<Conn>(options_, Conn::Mode::ReadOnly);
    }

    // One group commit of the writer: `work` inside, the backlog's queue before COMMIT.
    template <typename Work>
    void group(Work work) {
        writer_->exec("BEGIN IMMEDIATE");
        writer_->search_backlog().begin(*writer_);
        work();
        writer_->search_backlog().before_commit(*writer_);
        writer_->exec("COMMIT");
    }

    // Appends the texts and indexes them, as the writer does.
    void add(const std::vector<std::string>& texts) {
        group([&] { append(texts); });
        writer_->exec("BEGIN IMMEDIATE");
        SearchBacklog::Batch batch = writer_->search_backlog().index_batch(*writer_, 1000);
        writer_->exec("COMMIT");
        writer_->search_backlog().indexed(batch);
    }

    void append(const std::vector<std::string>& texts) {
        for (const std::string& text : texts) {
            ++seq_;
            Query(*writer_,
                  "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text, "
                  "search_trigrams) VALUES (1, ?1, ?2, 'user', 'user', '{}', 0, ?3, 0)")
                .args(seq_, "e" + std::to_string(seq_), text)
                .run();
            writer_->search_backlog().inserted(*writer_, sqlite3_last_insert_rowid(writer_->db()), text, false);
        }
    }

    // What the reader's counts and count(*) say, in one read snapshot.
    std::pair<std::vector<double>, std::vector<double>> both(const std::vector<std::string>& terms) {
        reader_->exec("BEGIN");
        std::vector<double> kept = reader_->term_documents().of(*reader_, terms);
        std::vector<double> counted;
        for (const std::string& term : terms) {
            Query count(*reader_, "SELECT count(*) FROM events_words WHERE events_words MATCH ?1");
            count.args("\"" + term + "\"");
            counted.push_back(count.step() ? static_cast<double>(count.i64(0)) : -1);
        }
        reader_->exec("COMMIT");
        return {kept, counted};
    }

    TempDir dir_;
    Options options_;
    std::unique_ptr<Conn> writer_, reader_;
    int64_t seq_ = 0;
};

TEST_F(TermDocumentsTest, CountsFollowTheIndexThroughInsertsAndDeletes) {
    const std::vector<std::string> terms = {"zebra", "kiwi", "run", "absent"};
    add({"zebra crossing", "kiwi and zebra", "running zebras", "a kiwi"});
    auto [kept, counted] = both(terms);
    EXPECT_EQ(kept, (std::vector<double>{3, 2, 1, 0}));
    EXPECT_EQ(kept, counted);
    EXPECT_EQ(both(terms).first, kept) << "asked again, the index unchanged";

    add({"zebra runs", "runs", "absent at last"});
    std::tie(kept, counted) = both(terms);
    EXPECT_EQ(kept, (std::vector<double>{4, 2, 3, 1})) << "an indexed insert is counted";
    EXPECT_EQ(kept, counted);

    group([&] { Query(*writer_, "DELETE FROM events WHERE search_text = 'zebra crossing'").run(); });
    std::tie(kept, counted) = both(terms);
    EXPECT_EQ(kept, (std::vector<double>{3, 2, 3, 1})) << "a delete is counted";
    EXPECT_EQ(kept, counted);
}

}  // namespace
}  // namespace mnemo::sqlite::test
