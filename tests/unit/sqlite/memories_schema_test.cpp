// The steps of migrations.h that came with long-term memories, on files
// mnemod left behind: a file of the step before the memories gains them
// with its data intact, and that step cut off after its DDL (a crash before
// its version row) finishes at the next open; a file of the step before the
// extraction cursor gains sessions.extracted_seq at 0, and one of the step
// before the scope index gains memories_scope. The operations
// themselves are the shared tests of tests/unit/memory/memories/.
#include "sqlite_fixture.h"
#include "core/plugin_host.h"
#include "migrations.h"

namespace mnemo::sqlite::test {
namespace {

// The step before the memories.
constexpr size_t index_of(int version) {
    size_t i = 0;
    while (kMigrations[i].version != version) ++i;
    return i;
}
constexpr size_t kBeforeMemories = index_of(kMemoriesVersion);

// A file as mnemod left it at the step before the memories (or another
// step), with one session (seqs 1 and 2 given, both events gone).
void write_previous_file(const std::string& path, size_t steps = kBeforeMemories) {
    RawDb db(path);
    db.exec(kSchemaVersionTable);
    for (size_t i = 0; i < steps; ++i) {
        db.exec(kMigrations[i].sql);
        db.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(kMigrations[i].version) + ")");
    }
    db.exec(
        "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, version, event_count, last_seq) "
        "VALUES (7, 'shop', 'u1', 'old', 1, 1, 4, 0, 2)");
}

mnemo_backend* open_file(const std::string& path) {
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    const std::string options = R"({"path": ")" + path + R"("})";
    EXPECT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    return backend;
}

// Writes one memory with a vector; its key, or -1 when refused.
int64_t write_memory(mnemo_backend* backend, const std::string& id) {
    const std::vector<float> vector{1, 0};
    mnemo_memory_input in{};
    in.id = S(id);
    in.id_from_client = 1;
    in.text = S("prefers aisle seats");
    in.folded_text = S("prefers aisle seats");
    in.vector = mnemo_vector{vector.data(), vector.size()};
    mnemo_memory_write_req req{S("shop"), S("u1"), &in, 1, 0, 0, kNow};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(plugin().ops->memory_write(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    const Rows out = sink.out();
    return out.written.empty() ? -1 : out.written[0].memory.key;
}

int64_t session_version(mnemo_backend* backend) {
    Recorder sink;
    mnemo_session_get_req req{{S("shop"), S("u1"), S("old")}, kNow, 1, {}};
    mnemo_error err{};
    EXPECT_EQ(plugin().ops->session_get(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out().sessions.empty() ? -1 : sink.out().sessions[0].version;
}

TEST(SqliteMemoriesMigration, AFileOfThePreviousStepGainsMemoriesWithItsDataIntact) {
    TempDir dir;
    const std::string path = dir.file("old.db");
    write_previous_file(path);
    mnemo_backend* backend = open_file(path);
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(session_version(backend), 4);
    EXPECT_EQ(write_memory(backend, "m1"), 1) << "the first memory takes the first key";
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT last_seq FROM memory_feed WHERE id = 1"), 1);
    EXPECT_EQ(migrated.number("SELECT dimension FROM memory_apps WHERE app = 'shop'"), 2);
    EXPECT_EQ(migrated.number("SELECT length(vector_blob) FROM memories"), 8) << "two float32 values";
}

TEST(SqliteMemoriesMigration, TheStepCutOffAfterItsDdlFinishesAtTheNextOpen) {
    TempDir dir;
    const std::string path = dir.file("cut.db");
    write_previous_file(path);
    {
        RawDb cut(path);
        cut.exec(kMigrations[kBeforeMemories].sql);  // the DDL ran; its version row never came
    }
    mnemo_backend* backend = open_file(path);
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(session_version(backend), 4);
    EXPECT_GT(write_memory(backend, "m1"), 0);
    plugin().ops->close(backend);
    RawDb finished(path);
    EXPECT_EQ(finished.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(finished.number("SELECT count(*) FROM memory_feed"), 1) << "the counter row is not doubled";
    EXPECT_EQ(finished.number(count_matching("memories_words", "aisle")), 1);
}

TEST(SqliteExtractCursorMigration, AFileOfThePreviousStepGainsTheCursorAtZero) {
    TempDir dir;
    const std::string path = dir.file("old.db");
    write_previous_file(path, index_of(kExtractCursorVersion));
    mnemo_backend* backend = open_file(path);
    ASSERT_NE(backend, nullptr);
    // Compare-and-set from 0: it succeeds only when the old session starts there.
    mnemo_extracted_req moved{{S("shop"), S("u1"), S("old")}, kNow, 0, 2};
    mnemo_error err{};
    EXPECT_EQ(plugin().ops->session_extracted(backend, &moved, nullptr, &err), MNEMO_OK) << err.message;
    plugin().ops->close(backend);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT extracted_seq FROM sessions WHERE sid = 7"), 2);
    EXPECT_EQ(migrated.number("SELECT version FROM sessions WHERE sid = 7"), 4) << "the cursor is no client write";
}

TEST(SqliteMemoryScopeMigration, AFileOfThePreviousStepGainsTheScopeIndex) {
    TempDir dir;
    const std::string path = dir.file("old.db");
    write_previous_file(path, index_of(kMemoryScopeVersion));
    mnemo_backend* first = open_file(path);
    ASSERT_NE(first, nullptr);
    const int64_t key = write_memory(first, "m1");
    plugin().ops->close(first);
    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'memories_scope'"),
              1);
    EXPECT_EQ(
        migrated.number("SELECT row_key FROM memories INDEXED BY memories_scope WHERE app = 'shop' AND user = 'u1'"),
        key);
}

}  // namespace
}  // namespace mnemo::sqlite::test
