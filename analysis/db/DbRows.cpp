#include "db/DbRows.hpp"

#include <charconv>
#include <cmath>

namespace marey {

DbStrings DbStrings::Read(const SqliteFile& db, std::vector<std::string>& problems) {
    DbStrings strings;
    if (!db.HasTable("STRING_IDS")) {
        problems.push_back("no table STRING_IDS: names read as <string N>");
        return strings;
    }
    auto statement = db.Prepare("SELECT id, value FROM STRING_IDS");
    if (!statement.ok()) {
        problems.push_back("table STRING_IDS: " + db.LastErrorMessage() +
                           ": names read as <string N>");
        return strings;
    }
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        int64_t id = 0;
        if (!ReadDbInt(row, 0, &id)) continue;
        // A NULL value is no name: read as the empty name it would become, its rows would lose
        // what tells them apart (and their labels would be blank), so it reads as a missing one.
        if (row.IsNull(1)) {
            strings.m_nullIds.insert(id);
            problems.push_back("table STRING_IDS, row " + std::to_string(id) +
                               ": value is NULL: names with this id read as <string " +
                               std::to_string(id) + ">");
            continue;
        }
        strings.m_values.emplace(id, std::string(row.Text(1)));
    }
    if (row.Failed()) problems.push_back(db.LastErrorMessage() + " (while reading STRING_IDS)");
    return strings;
}

const std::string* DbStrings::Find(int64_t id) const {
    const auto it = m_values.find(id);
    return it == m_values.end() ? nullptr : &it->second;
}

std::string DbStrings::Text(int64_t id) const {
    const std::string* text = Find(id);
    return text ? *text : "<string " + std::to_string(id) + ">";
}

DbColumns::DbColumns(const SqliteFile& db, std::string table,
                     const std::vector<std::string>& wanted)
    : m_table(std::move(table)) {
    const std::vector<std::string> columns = db.Columns(m_table);
    m_tableExists = !columns.empty();
    for (const std::string& want : wanted) {
        int found = -1;
        size_t start = 0;
        while (found < 0 && start <= want.size()) {
            const size_t bar = std::min(want.find('|', start), want.size());
            const std::string name = want.substr(start, bar - start);
            for (const std::string& column : columns)
                if (column == name) {
                    found = static_cast<int>(m_present.size()) + 1;  // rowid is column 0
                    m_present.push_back(name);
                    break;
                }
            start = bar + 1;
        }
        m_statementColumn.push_back(found);
        m_realName.push_back(found < 0 ? std::string() : m_present.back());
        if (found < 0 && m_tableExists) {
            std::string alternatives = want;
            for (char& c : alternatives)
                if (c == '|') c = '/';
            m_missing.push_back("table " + m_table + " has no column " + alternatives);
        }
    }
}

std::vector<std::string> MissingTableLines(const SqliteFile& db,
                                           std::initializer_list<ExpectedTable> tables,
                                           const std::string& note) {
    std::vector<std::string> lines;
    for (const ExpectedTable& table : tables)
        if (table.expected && !db.HasTable(table.table))
            lines.push_back(std::string("no table ") + table.table + note + ": " + table.loss);
    return lines;
}

std::string DbColumns::Select(const std::string& tail) const {
    std::string sql = "SELECT rowid";
    for (const std::string& name : m_present) sql += ", \"" + name + "\"";
    sql += " FROM \"" + m_table + "\"";
    if (!tail.empty()) sql += " " + tail;
    return sql;
}

std::string DbColumns::Expression(size_t index, const std::string& alias) const {
    if (m_realName[index].empty()) return "NULL";
    return alias + ".\"" + m_realName[index] + "\"";
}

namespace {

bool ParseInteger(std::string_view text, int64_t* value) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty()) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
    return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool ReadDbInt(const SqliteStatement& row, int column, int64_t* value) {
    if (column < 0) return false;
    switch (row.Type(column)) {
        case SqliteType::kInteger:
            *value = row.Int(column);
            return true;
        case SqliteType::kReal: {
            const double real = row.Real(column);
            // Integers written through a float column: exact up to 2^53.
            if (!std::isfinite(real) || std::floor(real) != real || std::fabs(real) > 9.0e15)
                return false;
            *value = static_cast<int64_t>(real);
            return true;
        }
        case SqliteType::kText:
            return ParseInteger(row.Text(column), value);
        default:
            return false;
    }
}

bool ReadDbNs(const SqliteStatement& row, int column, TimeNs* ns) {
    int64_t value = 0;
    if (!ReadDbInt(row, column, &value)) return false;
    *ns = value;
    return true;
}

bool ReadDbReal(const SqliteStatement& row, int column, double* value) {
    if (column < 0) return false;
    switch (row.Type(column)) {
        case SqliteType::kInteger:
            *value = static_cast<double>(row.Int(column));
            return true;
        case SqliteType::kReal:
            *value = row.Real(column);
            return std::isfinite(*value);
        case SqliteType::kText: {
            const std::string_view text = row.Text(column);
            if (text.empty()) return false;
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), *value);
            return error == std::errc() && end == text.data() + text.size() &&
                   std::isfinite(*value);
        }
        default:
            return false;
    }
}

}  // namespace marey
