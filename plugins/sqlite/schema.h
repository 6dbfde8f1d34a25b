// schema.h -- brings a database file to the schema this plugin knows:
// applies the missing migrations of migrations.h in order, one transaction
// each, and refuses a file written by a newer plugin.
#pragma once

#include "retry.h"

namespace mnemo::sqlite {

class Conn;

// Throws StoreError: MNEMO_E_INVALID for a newer schema (naming the file, its
// version and the supported one), the mapped SQLite error otherwise.
void migrate(Conn& conn, const RetryPolicy& retry);

}  // namespace mnemo::sqlite
