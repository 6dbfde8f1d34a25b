// raw_sqlite.cpp -- the reference of BENCH.md workload C: what SQLite alone
// does with the rows an append writes, with no daemon, no HTTP and no JSON.
// It creates a fresh database with the sqlite plugin's own schema
// (plugins/sqlite/migrations.h) in WAL mode, creates 1,000 sessions, then for
// the given time inserts one events row (a ~500-byte event JSON as content)
// into a random session and updates that session's row, exactly the rows the
// plugin writes per appended event, through prepared statements, with `batch`
// events per transaction. With --search-index yes (the default) the events
// row carries its search text as the plugin's does, and each transaction
// inserts its events' texts into the FTS5 index before COMMIT (the plugin's
// writer indexes them after COMMIT, in batches: search_backlog.h); with no, the
// text is left empty and nothing is indexed (the reference before search
// existed).
// Prints one machine-readable line:
//   RAW batch=64 synchronous=normal search_index=yes events=... seconds=... events_per_s=... bytes_per_1000_events=...
#include "migrations.h"
#include "search_backlog.h"
#include "term_tokenizer.h"

#include "core/plugin_host.h"
#include "host_services.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kSessions = 1000;

struct Settings {
    std::string path;
    std::string synchronous = "normal";
    int batch = 64;
    double seconds = 10;
    bool search_index = true;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "raw_sqlite: %s\n"
                 "usage: raw_sqlite --db FILE [--synchronous off|normal|full] [--batch N] [--seconds S]\n"
                 "                  [--search-index yes|no]\n"
                 "FILE must not exist yet; its folder must.\n",
                 why);
    std::exit(64);
}

Settings parse_args(int argc, char** argv) {
    Settings settings;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string key = argv[i], value = argv[i + 1];
        if (key == "--db")
            settings.path = value;
        else if (key == "--synchronous")
            settings.synchronous = value;
        else if (key == "--batch")
            settings.batch = std::atoi(value.c_str());
        else if (key == "--seconds")
            settings.seconds = std::atof(value.c_str());
        else if (key == "--search-index" && (value == "yes" || value == "no"))
            settings.search_index = value == "yes";
        else
            usage(("unknown option " + key).c_str());
    }
    if (argc % 2 == 0) usage("every option takes a value");
    if (settings.path.empty()) usage("--db is required");
    if (std::filesystem::exists(settings.path)) usage(("database " + settings.path + " already exists").c_str());
    if (settings.batch < 1 || settings.seconds <= 0) usage("--batch and --seconds must be positive");
    return settings;
}

class Db {
public:
    explicit Db(const std::string& path) {
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) fail("opening " + path);
        // events_words indexes host terms, as the plugin's connections do (term_tokenizer.h).
        mnemo::host::install(&mnemo::core::plugin_host());
        if (!mnemo::sqlite::register_term_tokenizer(db_)) fail("registering the FTS5 tokenizer mnemo");
    }
    ~Db() { sqlite3_close(db_); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    void exec(const std::string& sql) {
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql.substr(0, 60));
    }
    sqlite3_stmt* prepare(const char* sql) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) fail(sql);
        return stmt;
    }
    void step_done(sqlite3_stmt* stmt) {
        if (sqlite3_step(stmt) != SQLITE_DONE) fail(sqlite3_sql(stmt));
        sqlite3_reset(stmt);
    }
    sqlite3* handle() const { return db_; }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error(what + ": " + sqlite3_errmsg(db_));
    }

private:
    sqlite3* db_ = nullptr;
};

// The benchmark event's text (BENCH.md, tests/bench/payload.lua): 480 ASCII characters.
std::string event_text() {
    const std::string sentence = "The quick brown fox jumps over the lazy dog while the agent keeps notes. ";
    std::string text;
    while (text.size() < 480) text += sentence;
    return text.substr(0, 480);
}

void create_schema(Db& db, const std::string& synchronous) {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = " + synchronous);
    for (const auto& step : mnemo::sqlite::kMigrations) db.exec(step.sql);
    db.exec("BEGIN");
    for (int n = 1; n <= kSessions; ++n)
        db.exec("INSERT INTO sessions (app, user, id, created_at, updated_at) VALUES ('bench', 'u" + std::to_string(n) +
                "', 's" + std::to_string(n) + "', 0, 0)");
    db.exec("COMMIT");
}

int64_t now_us() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// The two statements of one appended event, with the per-session seq kept in memory as the plugin
// keeps it in the session row it has just read.
class Appender {
public:
    // search_text: what mnemod's core::search_text() makes of the content
    // {"text": T} (its one string, T); empty for no index.
    Appender(Db& db, bool search_index)
        : db_(db),
          insert_(db.prepare("INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text) "
                             "VALUES (?1, ?2, ?3, 'user', 'user', ?4, ?5, ?6)")),
          update_(db.prepare("UPDATE sessions SET updated_at = ?2, version = version + 1, "
                             "event_count = event_count + 1, last_seq = ?3 WHERE sid = ?1")),
          last_seq_(kSessions + 1, 0),
          search_text_(search_index ? event_text() : ""),
          content_(R"({"text":")" + event_text() + R"("})") {}
    ~Appender() {
        sqlite3_finalize(insert_);
        sqlite3_finalize(update_);
    }
    Appender(const Appender&) = delete;
    Appender& operator=(const Appender&) = delete;

    // The rowids appended since the last call (the transaction's backlog).
    std::vector<int64_t> take_appended() { return std::exchange(appended_, {}); }
    const std::string& search_text() const { return search_text_; }

    void append(int sid, int64_t serial) {
        int64_t seq = ++last_seq_[static_cast<size_t>(sid)];
        int64_t timestamp = now_us();
        std::string id = "e" + std::to_string(serial);
        sqlite3_bind_int(insert_, 1, sid);
        sqlite3_bind_int64(insert_, 2, seq);
        sqlite3_bind_text(insert_, 3, id.c_str(), static_cast<int>(id.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert_, 4, content_.c_str(), static_cast<int>(content_.size()), SQLITE_STATIC);
        sqlite3_bind_int64(insert_, 5, timestamp);
        sqlite3_bind_text(insert_, 6, search_text_.c_str(), static_cast<int>(search_text_.size()), SQLITE_STATIC);
        db_.step_done(insert_);
        if (!search_text_.empty()) appended_.push_back(sqlite3_last_insert_rowid(db_.handle()));
        sqlite3_bind_int(update_, 1, sid);
        sqlite3_bind_int64(update_, 2, timestamp);
        sqlite3_bind_int64(update_, 3, seq);
        db_.step_done(update_);
    }

private:
    Db& db_;
    sqlite3_stmt* insert_;
    sqlite3_stmt* update_;
    std::vector<int64_t> last_seq_;
    std::string search_text_;
    std::string content_;
    std::vector<int64_t> appended_;
};

// Indexing at commit, as one prepared statement: the benchmark's text is ASCII, so only events_words takes it,
// and nothing is ever queued (no deletes).
class SearchFlusher {
public:
    explicit SearchFlusher(Db& db) : db_(db), insert_(db.prepare(mnemo::sqlite::kBacklogWordsSql)) {}
    ~SearchFlusher() { sqlite3_finalize(insert_); }
    SearchFlusher(const SearchFlusher&) = delete;
    SearchFlusher& operator=(const SearchFlusher&) = delete;

    void flush(const std::vector<int64_t>& rowids, const std::string& search_text) {
        for (int64_t rowid : rowids) {
            sqlite3_bind_int64(insert_, 1, rowid);
            sqlite3_bind_text(insert_, 2, search_text.c_str(), static_cast<int>(search_text.size()), SQLITE_STATIC);
            db_.step_done(insert_);
        }
    }

private:
    Db& db_;
    sqlite3_stmt* insert_;
};

// Transactions of `batch` events until the time is up; returns the events committed.
int64_t run(Db& db, const Settings& settings) {
    Appender appender(db, settings.search_index);
    SearchFlusher flusher(db);
    std::minstd_rand rng(12345);
    std::uniform_int_distribution<int> pick(1, kSessions);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(settings.seconds);
    int64_t events = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        db.exec("BEGIN IMMEDIATE");
        for (int i = 0; i < settings.batch; ++i) appender.append(pick(rng), events + i);
        if (settings.search_index) flusher.flush(appender.take_appended(), appender.search_text());
        db.exec("COMMIT");
        events += settings.batch;
    }
    return events;
}

uintmax_t file_size_or_zero(const std::string& path) {
    std::error_code error;
    uintmax_t size = std::filesystem::file_size(path, error);
    return error ? 0 : size;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings = parse_args(argc, argv);
    try {
        int64_t events = 0;
        double seconds = 0;
        {
            Db db(settings.path);
            create_schema(db, settings.synchronous);
            auto started = std::chrono::steady_clock::now();
            events = run(db, settings);
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        }  // closing checkpoints the WAL into the file, so its size counts every row
        double bytes =
            static_cast<double>(file_size_or_zero(settings.path) + file_size_or_zero(settings.path + "-wal"));
        std::printf(
            "RAW batch=%d synchronous=%s search_index=%s events=%lld seconds=%.3f events_per_s=%.1f "
            "bytes_per_1000_events=%.0f\n",
            settings.batch, settings.synchronous.c_str(), settings.search_index ? "yes" : "no",
            static_cast<long long>(events), seconds, static_cast<double>(events) / seconds,
            events > 0 ? bytes * 1000.0 / static_cast<double>(events) : 0.0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "raw_sqlite: %s\n", e.what());
        return 1;
    }
    return 0;
}
