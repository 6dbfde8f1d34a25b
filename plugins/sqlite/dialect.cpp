// dialect.cpp -- the SQL core's statement table on SQLite (sql/dialect.h).
#include "connection.h"
#include "dialect.h"

namespace mnemo::sqlite {
namespace {

const sqlcore::Dialect kSqlite{
    .name = "sqlite",
    .lock_rows = "",
};

}  // namespace

const sqlcore::Dialect& Conn::dialect() const {
    return kSqlite;
}

}  // namespace mnemo::sqlite
