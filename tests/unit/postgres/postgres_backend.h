// postgres_backend.h -- the postgres plugin through its ABI table the way
// mnemod drives it (backend_fixture.h: dlopen of the built
// mnemo_postgres.so), against the test process's private PostgreSQL: one
// database per test and open/close with the plugin's options.
#pragma once

#include "backend/requests.h"
#include "postgres_server.h"

#include <gtest/gtest.h>

#include <string>

namespace mnemo::postgres::test {

using backend_test::Answer;
using backend_test::AppendAnswer;
using backend_test::kNow;
using backend_test::S;

const mnemo_storage_ops& ops();
postgres_fixture::PostgresServer& server();

// The status of opening (and closing) the plugin with options_json; err holds its error.
int open_status(const std::string& options_json, mnemo_error& err);

// One open backend on a database; closed on destruction.
class Backend {
public:
    explicit Backend(const std::string& database);
    ~Backend();
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;
    mnemo_backend* get() const { return backend_; }
    explicit operator bool() const { return backend_ != nullptr; }

    Answer create(const std::string& id);
    AppendAnswer append(const std::string& id, const std::string& text);
    Answer get(const std::string& id);
    Answer ping();

private:
    mnemo_key key(const std::string& id) const { return mnemo_key{S("shop"), S("u1"), S(id)}; }
    mnemo_backend* backend_ = nullptr;
};

// A fresh database per test; dropped at the end.
class PostgresTest : public ::testing::Test {
protected:
    void SetUp() override { database_ = server().create_database("unit"); }
    void TearDown() override {
        if (server().running()) server().drop_database(database_);
    }
    std::string database_;
};

}  // namespace mnemo::postgres::test
