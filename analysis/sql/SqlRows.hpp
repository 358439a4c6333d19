#pragma once
// What a table of `marey sql` is to the SQL engine: rows numbered by their id 0..Count()-1, each
// cell computed from the model when a query reads it (nothing is copied into a database). A
// table that can find the rows of a constraint faster than a scan says so per column, and
// Narrow turns such constraints into the spans of ids that may hold matching rows.
#include <cstdint>
#include <string>
#include <vector>

struct sqlite3_context;

namespace marey {

struct SqlColumn {
    const char* name;
    const char* type;      // its declared SQL type: INTEGER, REAL, TEXT
    bool indexed = false;  // Narrow answers constraints on it
};

// One constraint of a query on an indexed column, with an integer value: id >= 5, ts < 100.
enum class SqlCompare : uint8_t { kEqual, kLess, kLessOrEqual, kGreater, kGreaterOrEqual };
struct SqlBound {
    int column;
    SqlCompare compare;
    int64_t value;
};

// Where a cursor reading rows in order was, kept by the cursor for the table: reading the next
// row from there costs O(1).
struct CellHint {
    size_t place = 0;   // the table's own: a part of its rows
    size_t fields = 0;  // for TraceSource::FieldsAt
};

// Ids [first, end).
struct IdSpan {
    int64_t first;
    int64_t end;
};

// The smallest and largest integer an inclusive range of a column holds after 'bounds' on that
// column; 'low' > 'high' when none.
void IntersectBounds(const std::vector<SqlBound>& bounds, int column, int64_t& low, int64_t& high);

class SqlRows {
public:
    virtual ~SqlRows() = default;
    virtual const char* Name() const = 0;
    virtual const std::vector<SqlColumn>& Columns() const = 0;
    virtual int64_t Count() const = 0;
    // Ascending, non-overlapping spans of the ids that may satisfy every bound (the engine checks
    // each row again, so a span may hold more). This default reads the bounds on "id" (column 0).
    virtual std::vector<IdSpan> Narrow(const std::vector<SqlBound>& bounds) const;
    // About how many rows Narrow leaves for bounds on these columns, for the query planner.
    virtual double EstimatedRows(const std::vector<SqlBound>& bounds) const;
    // Whether rows in ascending id order are in ascending order of 'column' too.
    virtual bool SortedById(int column) const { return column == 0; }
    // Whether GroupedIds can put the rows of equal values of 'column' next to each other (for a
    // GROUP BY or DISTINCT on it, which then needs no sort).
    virtual bool CanGroupBy(int) const { return false; }
    // The ids of 'spans', those of equal 'column' adjacent, the groups in ascending order of the
    // column (NULL first, text by its bytes, as SQLite's BINARY collation orders it). Only where
    // CanGroupBy(column).
    virtual std::vector<int64_t> GroupedIds(const std::vector<IdSpan>& spans, int column) const;
    // Sets the value of 'column' of row 'id' on 'out'. 'hint' belongs to the caller's cursor.
    virtual void Cell(int64_t id, int column, sqlite3_context* out, CellHint& hint) const = 0;
};

}  // namespace marey
