#pragma once
// How `marey sql` writes a statement's rows: an aligned table (numbers to the right, NULL as
// [NULL], a row count after), CSV (RFC 4180: a header row, fields quoted where they must be) or
// JSON (one array of objects per statement, on its own line).
#include <cstdio>
#include <memory>
#include <string>

#include "sql/SqlSession.hpp"

namespace marey {

enum class SqlOutputFormat { kTable, kCsv, kJson };

// Cell 'column' of the row 'statement' holds, as a JSON value: null, an integer, the shortest
// real that reads back the same (null when not finite), or a string (invalid UTF-8 replaced).
void AppendSqlCellJson(std::string& out, sqlite3_stmt* statement, int column);

// Writes to 'out', which must outlive the sink.
std::unique_ptr<SqlResultSink> MakeSqlOutput(SqlOutputFormat format, std::FILE* out);

}  // namespace marey
