// ops.h -- the domain steps of the ABI, each a function over one connection.
// Write steps run on the writer thread inside their own savepoint, so any
// StoreError they throw undoes exactly their changes; read steps run inside
// one read snapshot of a pooled connection.
#pragma once

#include "connection.h"
#include "sql_ops.h"

namespace mnemo::sqlite {

// Search over the app's transcripts (ops_search.cpp: FTS5 ranked by bm25;
// the rules are core/search.h). Every other step is the SQL core's (sql_ops.h).
void search(Conn& conn, const mnemo_search_req& req, Output& out);

}  // namespace mnemo::sqlite
