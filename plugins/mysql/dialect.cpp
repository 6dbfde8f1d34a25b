// dialect.cpp -- the SQL core's statement table on MySQL (sql/dialect.h).
#include "connection.h"
#include "dialect.h"

namespace mnemo::mysql {
namespace {

const sqlcore::Dialect kMysql{
    .name = "mysql",
    .lock_rows = " FOR UPDATE",
};

}  // namespace

const sqlcore::Dialect& Conn::dialect() const {
    return kMysql;
}

}  // namespace mnemo::mysql
