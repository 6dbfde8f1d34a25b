// sql_text.h -- the SQL core's statement texts as PostgreSQL takes them. The
// core writes one text for every engine (plugins/sql: `?` parameters, MySQL
// and SQLite spellings); this backend rewrites each text once, when its
// connection first prepares it:
//  - `?` becomes $1, $2, ... in order and `?N` becomes $N (this backend's own
//    texts number their parameters like sqlite's, to use one twice);
//  - a parameter that `IS [NOT] NULL` tests alone is cast to text, as the
//    server infers no type from that test (a NULL binds without a type);
//  - the column `user`, a reserved word here, is quoted;
//  - sqlite's `+column` (which keeps its planner off an index) loses the `+`;
//  - REPLACE INTO, which PostgreSQL lacks, becomes INSERT ... ON CONFLICT
//    on the table's primary key DO UPDATE of every column.
// Quoted strings and identifiers pass unchanged.
#pragma once

#include <string>
#include <string_view>

namespace mnemo::postgres {

struct PgText {
    std::string sql;
    int params = 0;  // the highest parameter number
};

PgText postgres_text(std::string_view sql);

}  // namespace mnemo::postgres
