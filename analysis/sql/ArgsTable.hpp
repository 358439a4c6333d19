#pragma once
// The `args` table of `marey sql` and its function extract_arg(arg_set_id, key), as Perfetto
// names them: each slice's arguments, read from the file only when a query asks for them (a
// slice's arg_set_id is its id). A constraint "arg_set_id = N" reads one slice; a query without
// one reads every slice's event, which costs what parsing the whole trace again costs.
#include "core/Status.hpp"
#include "sql/SliceRows.hpp"

struct sqlite3;

namespace marey {

// Registers `args` and extract_arg over 'slices', which must outlive the connection.
Status RegisterArgs(sqlite3* db, const SliceRows& slices);

}  // namespace marey
