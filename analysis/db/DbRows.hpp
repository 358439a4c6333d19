#pragma once
// What every reader of a profiler database needs: the string table, the columns of a table found
// by name, and time values read whatever their storage class.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"
#include "db/SqliteFile.hpp"

namespace marey {

// STRING_IDS(id, value): every name in the database is an id into it.
class DbStrings {
public:
    // Reads the whole table; a database without it has no names (each reads "<string N>"), and
    // a row whose value is NULL is a problem naming its row.
    static DbStrings Read(const SqliteFile& db, std::vector<std::string>& problems);
    // The string of 'id', or nullptr when the table has none (or a NULL one).
    const std::string* Find(int64_t id) const;
    // Whether the table has a row of 'id' whose value is NULL (a problem already named).
    bool IsNull(int64_t id) const { return m_nullIds.count(id) != 0; }
    // The string of 'id', or "<string N>" when there is none.
    std::string Text(int64_t id) const;

private:
    std::unordered_map<int64_t, std::string> m_values;
    std::unordered_set<int64_t> m_nullIds;
};

// A table a reader expects, whether the run had what it holds (a profiler writes some tables only
// when there is something to put in them) and what its absence changes, for a person.
struct ExpectedTable {
    const char* table;
    bool expected;
    const char* loss;
};

// "no table T<note>: <loss>" for each expected table 'db' lacks, in the order given. O(tables).
std::vector<std::string> MissingTableLines(const SqliteFile& db,
                                           std::initializer_list<ExpectedTable> tables,
                                           const std::string& note = "");

// A table's columns, wanted by name: a query reads "rowid" first and then each column present.
// Column names drift between schema versions: each wanted column may name alternatives
// ("blockDim|blockNum"). Missing columns read as NULL.
class DbColumns {
public:
    DbColumns(const SqliteFile& db, std::string table, const std::vector<std::string>& wanted);
    bool TableExists() const { return m_tableExists; }
    // The SELECT listing rowid and every present column, with 'tail' appended ("ORDER BY ...").
    std::string Select(const std::string& tail = "") const;
    // The statement column of wanted column 'index', or -1 when the table lacks it.
    int Column(size_t index) const { return m_statementColumn[index]; }
    bool Has(size_t index) const { return m_statementColumn[index] >= 0; }
    // "alias.\"name\"" of wanted column 'index' for a hand-written query, or "NULL" when absent.
    std::string Expression(size_t index, const std::string& alias) const;
    // "table TASK has no column blockDim (nor blockNum)" for each missing one.
    const std::vector<std::string>& Missing() const { return m_missing; }
    const std::string& Table() const { return m_table; }

private:
    std::string m_table;
    bool m_tableExists = false;
    std::vector<std::string> m_present;  // the real names of the present columns, in order
    std::vector<int> m_statementColumn;
    std::vector<std::string> m_realName;  // per wanted column; empty when absent
    std::vector<std::string> m_missing;
};

// Reads a time in ns from an INTEGER, a REAL that holds an integer, or TEXT of decimal digits
// (PYTORCH_API keeps its times as TEXT). False for NULL, other text, or a value out of range.
bool ReadDbNs(const SqliteStatement& row, int column, TimeNs* ns);
// An integer cell (INTEGER, or TEXT of digits); false for NULL and anything else.
bool ReadDbInt(const SqliteStatement& row, int column, int64_t* value);
// A number cell (INTEGER, REAL, or TEXT of a decimal number); false for NULL and anything else.
bool ReadDbReal(const SqliteStatement& row, int column, double* value);

}  // namespace marey
