#pragma once
// SQLite's virtual-table interface over a SqlRows: an eponymous, read-only table named after the
// rows ("select * from slice"), whose indexed columns the query planner can use.
#include <string>

#include "core/Status.hpp"
#include "sql/SqlRows.hpp"

struct sqlite3;

namespace marey {

// Makes 'rows' a table of 'db'. 'rows' must outlive the connection.
Status RegisterSqlTable(sqlite3* db, const SqlRows& rows);

}  // namespace marey
