// ops.h -- the domain steps of the ABI, each a function over one connection.
// Write steps run inside their own READ COMMITTED transaction, so any
// StoreError they throw undoes exactly their changes (and MNEMO_E_BUSY makes
// the store run them again from the start); read steps run inside one
// REPEATABLE READ snapshot.
#pragma once

#include "connection.h"
#include "sql_ops.h"

namespace mnemo::postgres {

// Search over the app's transcripts (ops_search.cpp: the GIN index of host
// terms; the rules are core/search.h). Every other step is the SQL core's (sql_ops.h).
void search(Conn& conn, const mnemo_search_req& req, Output& out);

}  // namespace mnemo::postgres
