// schema.h -- brings a database to the schema this plugin knows: applies the
// missing migrations of migrations.h in order while holding a server-wide
// named lock (so two mnemod processes starting at once apply each step
// once), and refuses a database written by a newer plugin.
#pragma once

#include <string>

namespace mnemo::mysql {

class Conn;

// Throws StoreError: MNEMO_E_INVALID for a newer schema (naming the database,
// its version and the supported one), MNEMO_E_UNAVAILABLE when the lock is
// not granted in time, the mapped server error otherwise.
void migrate(Conn& conn, const std::string& database);

// The re-derivation of the search columns from the host's terms
// (migrations.h kHostTermsVersion; rederive.cpp): batches of
// kRederiveBatch rows, each its own transaction. Re-runnable.
void rederive_host_terms(Conn& conn);
// Fills memories.terms where it is NULL (migrations.h kMemoryTermsVersion),
// with word_count, in batches of kRederiveBatch rows. Re-runnable.
void rederive_memory_term_lists(Conn& conn);

}  // namespace mnemo::mysql
