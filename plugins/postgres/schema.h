// schema.h -- brings a database to the schema this plugin knows: applies the
// missing migrations of migrations.h in one transaction under an advisory
// lock (so two mnemod processes starting at once apply each step once), and
// refuses a database written by a newer plugin, or one whose encoding is not
// UTF8 (names and texts are UTF-8, stored byte for byte).
#pragma once

namespace mnemo::postgres {

class Conn;

// Throws StoreError: MNEMO_E_INVALID for a newer schema (naming the database,
// its version and the supported one) or a database that is not UTF8,
// MNEMO_E_UNAVAILABLE when the lock is not granted in time, the mapped
// server error otherwise.
void migrate(Conn& conn);

// Throws StoreError(MNEMO_E_INVALID) when the database's encoding is not
// UTF8, naming it and how to create one that is (migrate() and the check).
void require_utf8(Conn& conn);

}  // namespace mnemo::postgres
