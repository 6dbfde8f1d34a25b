// The database file: options, persistence across close and open, schema
// migrations from an old file, refusal of a newer one, and the descriptor.
#include "sqlite_fixture.h"
#include "core/plugin_host.h"
#include "migrations.h"

#include <sqlite3.h>

#include <filesystem>
#include <fstream>

namespace mnemo::sqlite::test {
namespace {

using StorageTest = SqliteBackend;

int open_with(const std::string& options, mnemo_error& err) {
    mnemo_backend* backend = nullptr;
    int rc = plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err);
    if (backend) plugin().ops->close(backend);
    return rc;
}

TEST(SqlitePlugin, DescribesItselfAsPersistentSoftDeletingSearchingAndBlocking) {
    EXPECT_EQ(plugin().abi_version, static_cast<uint32_t>(MNEMO_PLUGIN_ABI_VERSION));
    EXPECT_STREQ(plugin().name, "sqlite");
    EXPECT_EQ(plugin().capabilities, MNEMO_CAP_PERSISTENT | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SEARCH);
    EXPECT_EQ(plugin().ops->ops_size, sizeof(mnemo_storage_ops));
}

TEST(SqliteOptions, RefusesUnknownKeysWrongTypesAndBadValuesNamingTheKey) {
    TempDir dir;
    mnemo_error err{};
    EXPECT_EQ(open_with(R"({"pth": "/tmp/x.db"})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message,
                 "sqlite storage options: unknown key 'pth' (known: path, synchronous, busy_timeout_ms, "
                 "cache_size_bytes, readers)");
    EXPECT_EQ(open_with(R"({"readers": "4"})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: 'readers' must be an integer");
    EXPECT_EQ(open_with(R"({"readers": 0})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: 'readers' is 0, expected 1..256");
    EXPECT_EQ(open_with(R"({"synchronous": "always"})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: 'synchronous' is 'always', expected off, normal or full");
    EXPECT_EQ(open_with(R"({"readers": 1.5})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: 'readers' must be an integer");
    EXPECT_EQ(open_with(R"({"path": {"dir": "/tmp"}})", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: 'path' must be a string");
    EXPECT_EQ(open_with("[1]", err), MNEMO_E_INVALID);
    EXPECT_STREQ(err.message, "sqlite storage options: not a JSON object: '[1]'");
}

TEST(SqliteOptions, CreatesTheFolderAndNamesThePathWhenItCannot) {
    TempDir dir;
    mnemo_error err{};
    std::string nested = dir.file("a/b/c/mnemo.db");
    EXPECT_EQ(open_with(R"({"path": ")" + nested + R"(", "synchronous": "full", "readers": 1})", err), MNEMO_OK)
        << err.message;
    EXPECT_TRUE(std::filesystem::exists(nested));
    std::ofstream(dir.file("plain")) << "x";
    EXPECT_EQ(open_with(R"({"path": ")" + dir.file("plain/mnemo.db") + R"("})", err), MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(err.message).find(dir.file("plain")), std::string::npos) << err.message;
}

TEST(SqliteOptions, AFileThatIsNotADatabaseIsRefusedByName) {
    TempDir dir;
    std::ofstream(dir.file("junk.db")) << std::string(4096, 'j');
    mnemo_error err{};
    EXPECT_NE(open_with(R"({"path": ")" + dir.file("junk.db") + R"("})", err), MNEMO_OK);
    EXPECT_NE(std::string(err.message).find(dir.file("junk.db")), std::string::npos) << err.message;
}

TEST_F(StorageTest, EverythingSurvivesCloseAndOpen) {
    ASSERT_EQ(create("s1", {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "1"}, {MNEMO_SCOPE_APP, "a", "2"}}}).rc, MNEMO_OK);
    EventSpec e;
    e.content = R"({"text" : "kept"})";
    e.usage.total_tokens = 5;
    ASSERT_EQ(append("s1", copies(e, 2)).rc, MNEMO_OK);
    ASSERT_EQ(put_summary("s1", "", 1).rc, MNEMO_OK);
    close();
    ASSERT_EQ(open(), MNEMO_OK);
    Answer got = get("s1");
    ASSERT_EQ(got.rc, MNEMO_OK) << got.err.message;
    EXPECT_EQ(got.out.sessions.at(0).version, 3);
    EXPECT_EQ(got.out.sessions.at(0).usage.total_tokens, 10);
    EXPECT_EQ(got.out.events.at(1).content_json, e.content);
    EXPECT_EQ(got.out.state_of(MNEMO_SCOPE_APP).at("a"), "2");
    EXPECT_EQ(append("s1", copies(e, 1)).seqs, (std::vector<int64_t>{3}));
}

TEST_F(StorageTest, OpeningTwiceIsIdempotent) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    mnemo_backend* second = nullptr;
    mnemo_error err{};
    std::string options = "{\"path\": \"" + db_path() + "\"}";
    ASSERT_EQ(ops().open(&mnemo::core::plugin_host(), options.c_str(), &second, &err), MNEMO_OK) << err.message;
    ops().close(second);
    close();
    ASSERT_EQ(open(), MNEMO_OK);
    EXPECT_EQ(get("s1").rc, MNEMO_OK);
    RawDb raw(db_path());
    EXPECT_EQ(raw.number("SELECT count(*) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(raw.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
}

// A file as mnemod left it at schema `version`: migrations 1..version, recorded.
void migrate_to(RawDb& db, size_t version) {
    db.exec(kSchemaVersionTable);
    for (size_t i = 0; i < version; ++i) {
        db.exec(kMigrations[i].sql);
        db.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(kMigrations[i].version) + ")");
    }
}

TEST(SqliteMigration, AVersionOneFileIsMigratedWithItsDataIntact) {
    TempDir dir;
    std::string path = dir.file("old.db");
    {
        RawDb v1(path);
        v1.exec(kSchemaVersionTable);
        v1.exec(kMigrations[0].sql);
        v1.exec("INSERT INTO schema_version (version) VALUES (1)");
        v1.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, version, event_count, last_seq) "
            "VALUES (7, 'shop', 'u1', 'old', 1, 1, 4, 1, 3)");
        v1.exec(
            "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us) "
            "VALUES (7, 3, 'e3', 'user', 'user', '{\"text\": \"from v1\"}', 5)");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    Recorder sink;
    mnemo_session_get_req req{{S("shop"), S("u1"), S("old")}, kNow, 1, {}};
    ASSERT_EQ(plugin().ops->session_get(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    EXPECT_EQ(sink.out().sessions.at(0).version, 4);
    EXPECT_EQ(sink.out().events.at(0).content_json, Opt(R"({"text": "from v1"})"));
    mnemo_stats_req stats{kNow};
    ASSERT_EQ(plugin().ops->stats(backend, &stats, sink.get(), &err), MNEMO_OK) << "the lanes table now exists";
    EXPECT_EQ(sink.out().stats.lanes, 0);
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
}

// v3 adds finalize marks and lanes.created_at: a lane keeps its data and
// takes created_at from updated_at; a session soft-deleted before v3 carries
// no mark, so it needs no finalize and the sweep purges it.
TEST(SqliteMigration, AVersionTwoFileGetsLaneCreatedAtAndPurgeableOldDeletes) {
    TempDir dir;
    std::string path = dir.file("v2.db");
    {
        RawDb v2(path);
        v2.exec(kSchemaVersionTable);
        v2.exec(kMigrations[0].sql);
        v2.exec(kMigrations[1].sql);
        v2.exec("INSERT INTO schema_version (version) VALUES (1), (2)");
        v2.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, deleted_at) "
            "VALUES (3, 'shop', 'u1', 'gone', 1, 1, 10)");
        v2.exec(
            "INSERT INTO lanes (app, lane, session_id, user, updated_at, pending_restarts, version) "
            "VALUES ('shop', 'tg:1', 's1', 'u1', 500, 2, 6)");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    Recorder lane;
    mnemo_lane_get_req get{S("shop"), S("tg:1"), kNow};
    ASSERT_EQ(plugin().ops->lane_get(backend, &get, lane.get(), &err), MNEMO_OK) << err.message;
    const Rows got = lane.out();
    ASSERT_EQ(got.lanes.size(), 1u);
    const storage::LaneRow& lane_row = got.lanes[0];
    EXPECT_EQ(lane_row.created_at_us, 500);
    EXPECT_EQ(lane_row.restart_count, 2);
    EXPECT_EQ(lane_row.version, 6);
    EXPECT_EQ(lane_row.platform, "") << "a NULL platform reads as none";
    Recorder swept;
    mnemo_sweep_req sweep{kNow, 10, 11, 0, 0};
    ASSERT_EQ(plugin().ops->sweep_step(backend, &sweep, swept.get(), &err), MNEMO_OK) << err.message;
    EXPECT_EQ(swept.out().sweep.purged_sessions, 1);
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sessions"), 0);
}

// v4 adds events.search_text and the FTS indexes: rows from before v4 get
// their search text computed from their JSON, and only visible rows are indexed.
TEST(SqliteMigration, AVersionThreeFileGetsSearchTextAndIndexes) {
    TempDir dir;
    std::string path = dir.file("v3.db");
    {
        RawDb v3(path);
        migrate_to(v3, 3);
        v3.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, last_seq, event_count) "
            "VALUES (1, 'shop', 'u1', 's1', 1, 1, 2, 1)");
        v3.exec(
            "INSERT INTO events (sid, seq, id, author, role, content, tool_calls, media, timestamp_us) "
            "VALUES (1, 1, 'e1', 'user', 'user', '{\"text\": \"hello /srv/app\", \"n\": 3}', "
            "'[{\"result_summary\": \"3 hits\", \"name\": \"grep\", \"arguments\": {\"pattern\": \"needle\"}}]', "
            "'[{\"kind\": \"image\", \"path\": \"/data/a.png\"}]', 5)");
        v3.exec(
            "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, deleted_at) "
            "VALUES (1, 2, 'e2', 'user', 'user', '\"ghost\"', 6, 9)");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT search_text = 'hello /srv/app' || char(10) || 'grep' || char(10) || 'needle' || "
                              "char(10) || '3 hits' || char(10) || '/data/a.png' FROM events WHERE seq = 1"),
              1);
    EXPECT_EQ(migrated.number("SELECT search_text = 'ghost' FROM events WHERE seq = 2"), 1);
    EXPECT_EQ(migrated.number(count_matching("events_words", "needle")), 1);
    EXPECT_EQ(migrated.number(count_matching("events_words", "srv app")), 1);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM events_trigrams WHERE events_trigrams MATCH '\"/srv/app\"'"), 0)
        << "v5: trigrams for CJK text only";
    EXPECT_EQ(migrated.number(count_matching("events_words", "ghost")), 0)
        << "soft-deleted rows are not indexed";
}

// v5 rebuilds the indexes: every visible row in events_words, rows with
// non-ASCII text (a superset of those with CJK) flagged and in
// events_trigrams; new rows are flagged by their CJK text alone.
TEST(SqliteMigration, AVersionFourFileKeepsTrigramsForNonAsciiRowsOnly) {
    TempDir dir;
    std::string path = dir.file("v4.db");
    {
        RawDb v4(path);
        migrate_to(v4, 4);
        v4.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, last_seq, event_count) "
            "VALUES (1, 'shop', 'u1', 's1', 1, 1, 3, 3)");
        v4.exec(
            "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text) VALUES "
            "(1, 1, 'e1', 'user', 'user', '\"x\"', 5, 'edit /etc/hosts now'), "
            "(1, 2, 'e2', 'user', 'user', '\"x\"', 6, '東京の天気'), "
            "(1, 3, 'e3', 'user', 'user', '\"x\"', 7, 'Mädchen')");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM events WHERE search_trigrams = 1"), 2);
    EXPECT_EQ(migrated.number(count_matching("events_words", "hosts")), 1);
    EXPECT_EQ(migrated.number(count_matching("events_words", "madchen")), 1);
    EXPECT_EQ(migrated.number("SELECT rowid FROM events_trigrams WHERE events_trigrams MATCH '\"の天気\"'"),
              migrated.number("SELECT rowid FROM events WHERE seq = 2"));
    EXPECT_EQ(migrated.number("SELECT count(*) FROM events_trigrams WHERE events_trigrams MATCH 'hosts'"), 0);
    migrated.exec("INSERT INTO events_words (events_words) VALUES ('integrity-check')");
    migrated.exec("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')");
}

// v7 kept client ids only in the id index; v9 indexes every visible id
// again, keyed by id first: a retry of a client id stored before the
// migration is still recognised, and a client id equal to a generated one is
// a retry or a conflict. The fixture's file is written at v6 before it opens.
class MigrationFromVersionSix : public SqliteBackend {
protected:
    static constexpr const char* kGenerated = "0193aaaa-0000-7000-8000-000000000000";
    void SetUp() override {
        RawDb v6(db_path());
        migrate_to(v6, 6);
        v6.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, version, last_seq, event_count) "
            "VALUES (1, 'shop', 'u1', 's1', 1, 1, 3, 2, 2)");
        v6.exec(
            "INSERT INTO events (sid, seq, id, id_from_client, author, role, content, timestamp_us) VALUES "
            "(1, 1, 'm-1', 1, 'user', 'user', '\"once\"', 5), "
            "(1, 2, '" +
            std::string(kGenerated) + "', 0, 'bot', 'assistant', '\"hi\"', 6)");
    }
    static EventSpec client_event(const std::string& id, const std::string& author, const std::string& content) {
        EventSpec spec;
        spec.id = id;
        spec.from_client = true;
        spec.author = author;
        spec.role = author == "bot" ? "assistant" : "user";
        spec.content = content;
        return spec;
    }
};

TEST_F(MigrationFromVersionSix, TheIdIndexHoldsClientAndGeneratedIds) {
    ASSERT_EQ(open(), MNEMO_OK);
    AppendAnswer retry = append("s1", {client_event("m-1", "user", "\"once\"")});
    ASSERT_EQ(retry.rc, MNEMO_OK) << retry.err.message;
    EXPECT_EQ(retry.result.retried, 1) << "a retry of the stored client id";
    EXPECT_EQ(retry.seqs, (std::vector<int64_t>{1}));
    AppendAnswer other = append("s1", {client_event(kGenerated, "bot", "\"mine\"")});
    EXPECT_EQ(other.rc, MNEMO_E_CONFLICT) << "the generated id is taken";
    AppendAnswer same = append("s1", {client_event(kGenerated, "bot", "\"hi\"")});
    ASSERT_EQ(same.rc, MNEMO_OK) << same.err.message;
    EXPECT_EQ(same.result.retried, 1);
    EXPECT_EQ(same.seqs, (std::vector<int64_t>{2}));
    close();
    RawDb migrated(db_path());
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE name = 'events_client_id'"), 0);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE name = 'events_visible_id'"), 1);
}

// Under v7 and v8 a client could store its own event under a generated id;
// such a file still migrates (the v9 index is not UNIQUE).
TEST(SqliteMigration, AVersionEightFileWithAReusedGeneratedIdMigrates) {
    TempDir dir;
    std::string path = dir.file("v8.db");
    {
        RawDb v8(path);
        migrate_to(v8, 8);
        v8.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at) VALUES (1, 'shop', 'u1', 's1', 1, 1)");
        v8.exec(
            "INSERT INTO events (sid, seq, id, id_from_client, author, role, content, timestamp_us) VALUES "
            "(1, 1, 'g-1', 0, 'bot', 'assistant', '1', 5), (1, 2, 'g-1', 1, 'user', 'user', '2', 6)");
    }
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(open_with(options, err), MNEMO_OK) << err.message;
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
}

// v10: an app's session list has its own index in its order, replacing v1's;
// the rows of a v9 file stay listed.
TEST(SqliteMigration, AVersionNineFileGetsTheAppListIndexInListOrder) {
    TempDir dir;
    std::string path = dir.file("v9.db");
    {
        RawDb v9(path);
        migrate_to(v9, 9);
        v9.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at) VALUES "
            "(1, 'shop', 'u1', 's1', 1, 1), (2, 'shop', 'u2', 's1', 1, 1)");
    }
    mnemo_error err{};
    ASSERT_EQ(open_with(R"({"path": ")" + path + R"("})", err), MNEMO_OK) << err.message;
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_app_updated'"), 0);
    EXPECT_EQ(migrated.number("SELECT group_concat(name, ',') = 'app,updated_at,user,id' FROM "
                              "(SELECT name FROM pragma_index_info('sessions_app_user_updated') ORDER BY seqno)"),
              1);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sessions INDEXED BY sessions_app_user_updated WHERE app = 'shop'"),
              2);
}

// Each step runs in one transaction with its version row (SQLite's DDL is
// transactional): a process that dies after a step's DDL and before its
// COMMIT leaves the file at the older version, and the next open runs the
// step whole.
TEST(SqliteMigration, EveryStepCutOffBeforeItsVersionRowFinishesAtTheNextOpen) {
    TempDir dir;
    for (size_t cut = 0; cut < kMigrations.size(); ++cut) {
        SCOPED_TRACE("cut off after the DDL of v" + std::to_string(kMigrations[cut].version));
        std::string path = dir.file("cut" + std::to_string(cut) + ".db");
        {
            RawDb before(path);
            migrate_to(before, cut);
            before.exec("BEGIN IMMEDIATE");
            before.exec(kMigrations[cut].sql);
        }  // closed without COMMIT, as a crash leaves it
        mnemo_error err{};
        std::string options = R"({"path": ")" + path + R"("})";
        ASSERT_EQ(open_with(options, err), MNEMO_OK) << err.message;
        RawDb migrated(path);
        EXPECT_EQ(migrated.number("SELECT count(*) FROM schema_version"), kSchemaVersion);
        EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    }
}

TEST(SqliteMigration, ANewerSchemaIsRefusedNamingFileAndVersions) {
    TempDir dir;
    std::string path = dir.file("new.db");
    {
        RawDb future(path);
        future.exec(kSchemaVersionTable);
        future.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(kSchemaVersion + 7) + ")");
    }
    mnemo_error err{};
    EXPECT_EQ(open_with(R"({"path": ")" + path + R"("})", err), MNEMO_E_INVALID);
    EXPECT_EQ(std::string(err.message), "sqlite database " + path + " has schema version " +
                                            std::to_string(kSchemaVersion + 7) +
                                            " but this mnemo_sqlite supports up to " + std::to_string(kSchemaVersion) +
                                            "; upgrade mnemod or point storage.options.path at another file");
}

}  // namespace
}  // namespace mnemo::sqlite::test
