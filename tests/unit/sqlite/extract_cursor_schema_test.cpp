// The extraction cursor step of migrations.h on a file mnemod left behind:
// a file of the step before it gains sessions.extracted_seq, 0 for its
// sessions, and the cursor then moves. The cursor's rules themselves are the
// shared tests of tests/unit/memory/memories/extract_cursor_test.cpp.
#include "backend_fixture.h"
#include "core/plugin_host.h"
#include "migrations.h"

namespace mnemo::sqlite::test {
namespace {

constexpr size_t index_of(int version) {
    size_t i = 0;
    while (kMigrations[i].version != version) ++i;
    return i;
}
constexpr size_t kBeforeCursor = index_of(kExtractCursorVersion);

TEST(SqliteExtractCursorMigration, AFileOfThePreviousStepGainsTheCursorAtZero) {
    TempDir dir;
    const std::string path = dir.file("old.db");
    {
        RawDb db(path);
        db.exec(kSchemaVersionTable);
        for (size_t i = 0; i < kBeforeCursor; ++i) {
            db.exec(kMigrations[i].sql);
            db.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(kMigrations[i].version) + ")");
        }
        db.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, version, event_count, last_seq) "
            "VALUES (7, 'shop', 'u1', 'old', 1, 1, 4, 2, 2)");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    const std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    // Compare-and-set from 0: it succeeds only when the old session starts there.
    mnemo_extracted_req moved{{S("shop"), S("u1"), S("old")}, kNow, 0, 2};
    EXPECT_EQ(plugin().ops->session_extracted(backend, &moved, nullptr, &err), MNEMO_OK) << err.message;
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT extracted_seq FROM sessions WHERE sid = 7"), 2);
    EXPECT_EQ(migrated.number("SELECT version FROM sessions WHERE sid = 7"), 4) << "the cursor is no client write";
}

}  // namespace
}  // namespace mnemo::sqlite::test
