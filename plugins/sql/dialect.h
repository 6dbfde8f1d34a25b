// dialect.h -- what differs between the SQL engines the core runs on, as
// data: the statement texts that are not the same word for word (a table
// per dialect, filled by each backend's dialect.cpp) and the locking forms.
// Every statement of the table takes its parameters in the order its comment
// gives, positional (`?`), the same for every dialect, so an operation binds
// once whatever the engine.
#pragma once

namespace mnemo::sqlcore {

struct Dialect {
    const char* name;  // "sqlite", "mysql": names the engine in messages
    // Appended to a SELECT whose rows a write decides on: " FOR UPDATE" where
    // rows are locked (mysql), "" where the whole write is serialized (sqlite).
    const char* lock_rows;
};

}  // namespace mnemo::sqlcore
