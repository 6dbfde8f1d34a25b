// mysql_backend.h -- drives the mysql plugin through its ABI table the way
// mnemod does (backend_fixture.h: dlopen of the built mnemo_mysql.so),
// against the test process's private MariaDB: databases, open/close, and
// small request helpers the backend-level tests share.
#pragma once

#include "backend/requests.h"
#include "mariadb_server.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace mnemo::mysql::test {

using backend_test::Answer;
using backend_test::AppendAnswer;
using backend_test::kNow;
using backend_test::kSecond;
using backend_test::Recorder;
using backend_test::Rows;
using backend_test::S;

const mnemo_plugin& plugin();
const mnemo_storage_ops& ops();
mysql_fixture::MariadbServer& server();

// One open backend on a database; closed on destruction.
class Backend {
public:
    explicit Backend(const std::string& database, int pool_size = 4);
    ~Backend();
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;
    mnemo_backend* get() const { return backend_; }
    explicit operator bool() const { return backend_ != nullptr; }

    Answer create(const std::string& id, int64_t ttl = 0, int64_t now = kNow);
    // One event whose content is {"text": text} (text needs no JSON escapes)
    // and whose search text is text; expected < 0: no expected_version.
    AppendAnswer append(const std::string& id, const std::string& text, int64_t expected = -1, int64_t now = kNow);
    Answer get(const std::string& id, int64_t now = kNow);
    Answer ping();
    Answer write_lane(const std::string& lane, const std::string& session_id, int64_t expected_version);
    Answer get_lane(const std::string& lane);
    Answer sweep(int64_t now, int64_t limit);
    Answer finalize_list(int64_t now, int64_t limit);
    // App "shop", every user, limit 100, max_hits 50, context 0.
    Answer search(const std::string& q, int64_t now = kNow);
    // Keyword recall of app "shop", user u1, at kNow.
    Answer recall(const std::string& q, int64_t limit = 10);

private:
    mnemo_key key(const std::string& id) const { return mnemo_key{S("shop"), S("u1"), S(id)}; }
    mnemo_backend* backend_ = nullptr;
};

// A fresh database per test; dropped at the end.
class MysqlTest : public ::testing::Test {
protected:
    void SetUp() override { database_ = server().create_database("unit"); }
    void TearDown() override {
        if (server().running()) server().drop_database(database_);
    }
    std::string database_;
};

}  // namespace mnemo::mysql::test
