// The core's statement texts as PostgreSQL takes them (sql_text.h): numbered
// parameters, typed null tests, the quoted `user` column, REPLACE INTO as an
// upsert, quoted text untouched.
#include "sql_text.h"

#include <gtest/gtest.h>

namespace mnemo::postgres {
namespace {

TEST(SqlTextTest, ParametersAreNumberedInOrderAndNumberedOnesKeepTheirNumber) {
    PgText text = postgres_text("SELECT a FROM t WHERE b = ? AND c < ? LIMIT ?");
    EXPECT_EQ(text.sql, "SELECT a FROM t WHERE b = $1 AND c < $2 LIMIT $3");
    EXPECT_EQ(text.params, 3);
    text = postgres_text("UPDATE t SET a = ?1, b = ?2 WHERE c <= ?3 AND d <= ?3");
    EXPECT_EQ(text.sql, "UPDATE t SET a = $1, b = $2 WHERE c <= $3 AND d <= $3");
    EXPECT_EQ(text.params, 3);
}

TEST(SqlTextTest, AParameterTestedForNullAloneIsText) {
    EXPECT_EQ(postgres_text("SELECT 1 WHERE (? IS NULL OR a = ?) AND ? IS NOT NULL").sql,
              "SELECT 1 WHERE ($1::text IS NULL OR a = $2) AND $3::text IS NOT NULL");
}

TEST(SqlTextTest, TheUserColumnIsQuotedWhereverItIsNamed) {
    EXPECT_EQ(postgres_text("SELECT s.user, user_id, username FROM sessions s WHERE user = ? ORDER BY user").sql,
              R"(SELECT s."user", user_id, username FROM sessions s WHERE "user" = $1 ORDER BY "user")");
}

TEST(SqlTextTest, QuotedTextIsLeftAlone) {
    EXPECT_EQ(postgres_text("SELECT 'user?', \"it's\" FROM t WHERE role = 'user' AND x = 'a''b?'").sql,
              "SELECT 'user?', \"it's\" FROM t WHERE role = 'user' AND x = 'a''b?'");
}

TEST(SqlTextTest, ReplaceIntoUpdatesEveryColumnOnThePrimaryKey) {
    EXPECT_EQ(postgres_text("REPLACE INTO track_events (sid, track, seq) VALUES (?, ?, ?)").sql,
              "INSERT INTO track_events (sid, track, seq) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT "
              "track_events_pkey DO UPDATE SET (sid, track, seq) = ROW(EXCLUDED.sid, EXCLUDED.track, EXCLUDED.seq)");
}

TEST(SqlTextTest, SqlitesIndexHintLosesItsPlus) {
    EXPECT_EQ(postgres_text("SELECT a FROM m WHERE e <= ? AND +app = ?").sql, "SELECT a FROM m WHERE e <= $1 AND app = $2");
}

}  // namespace
}  // namespace mnemo::postgres
