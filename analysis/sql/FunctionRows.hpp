#pragma once
// A table of rows 0..count-1 whose cells a function computes: what most of `marey sql`'s
// tables are (processes, tracks, a rank's kernels, a cluster's ranks), over vectors the model,
// the rank or the cluster already holds. And how a cell's text is set.
#include <sqlite3.h>

#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "sql/SqlRows.hpp"

namespace marey {

class FunctionRows final : public SqlRows {
public:
    using CellFunction = std::function<void(int64_t id, int column, sqlite3_context* out)>;
    FunctionRows(const char* name, std::vector<SqlColumn> columns, int64_t count, CellFunction cell)
        : m_name(name),
          m_columns(std::move(columns)),
          m_count([count] { return count; }),
          m_cell(std::move(cell)) {}
    // A count known only once something is computed (at the first query that names the table).
    FunctionRows(const char* name, std::vector<SqlColumn> columns, std::function<int64_t()> count,
                 CellFunction cell)
        : m_name(name),
          m_columns(std::move(columns)),
          m_count(std::move(count)),
          m_cell(std::move(cell)) {}
    const char* Name() const override { return m_name; }
    const std::vector<SqlColumn>& Columns() const override { return m_columns; }
    int64_t Count() const override { return m_count(); }
    void Cell(int64_t id, int column, sqlite3_context* out, CellHint&) const override {
        m_cell(id, column, out);
    }

private:
    const char* m_name;
    std::vector<SqlColumn> m_columns;
    std::function<int64_t()> m_count;
    CellFunction m_cell;
};

// 'text' as a cell, NULL when empty (no name, no step). The text must outlive the statement: the
// model's, the rank's and the cluster's strings do, so none is copied.
inline void SetSqlText(sqlite3_context* out, std::string_view text) {
    if (text.empty())
        sqlite3_result_null(out);
    else
        sqlite3_result_text(out, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

}  // namespace marey
