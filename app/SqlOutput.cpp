#include "SqlOutput.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "load/JsonString.hpp"

namespace marey {
namespace {

// A real as the shortest text that reads back as the same double.
std::string RealText(double value) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value);
    return std::string(text, written.ptr);
}

std::string CellText(sqlite3_stmt* statement, int column) {
    switch (sqlite3_column_type(statement, column)) {
        case SQLITE_NULL:
            return "[NULL]";
        case SQLITE_INTEGER:
            return std::to_string(sqlite3_column_int64(statement, column));
        case SQLITE_FLOAT:
            return RealText(sqlite3_column_double(statement, column));
        default: {
            const auto* text =
                reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
            return std::string(text ? text : "",
                               static_cast<size_t>(sqlite3_column_bytes(statement, column)));
        }
    }
}

// Display width: UTF-8 continuation bytes take no column.
size_t Width(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

class TableOutput final : public SqlResultSink {
public:
    explicit TableOutput(std::FILE* out) : m_out(out) {}
    void Begin(const std::vector<std::string>& columns) override {
        m_columns = columns;
        m_rows.clear();
        m_numeric.assign(columns.size(), true);
    }
    void Row(sqlite3_stmt* statement) override {
        std::vector<std::string> row;
        for (size_t c = 0; c < m_columns.size(); ++c) {
            const int type = sqlite3_column_type(statement, static_cast<int>(c));
            if (type == SQLITE_TEXT || type == SQLITE_BLOB) m_numeric[c] = false;
            row.push_back(CellText(statement, static_cast<int>(c)));
        }
        m_rows.push_back(std::move(row));
    }
    void End() override {
        std::vector<size_t> widths;
        for (const std::string& column : m_columns) widths.push_back(Width(column));
        for (const auto& row : m_rows)
            for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], Width(row[c]));
        std::string line;
        auto cell = [&](const std::string& text, size_t c, bool right) {
            if (c > 0) line += "  ";
            const std::string pad(widths[c] - Width(text), ' ');
            line += right ? pad + text : text + (c + 1 < widths.size() ? pad : "");
        };
        for (size_t c = 0; c < m_columns.size(); ++c) cell(m_columns[c], c, m_numeric[c]);
        line += '\n';
        for (size_t c = 0; c < m_columns.size(); ++c)
            line += (c > 0 ? "  " : "") + std::string(widths[c], '-');
        line += '\n';
        std::fwrite(line.data(), 1, line.size(), m_out);
        for (const auto& row : m_rows) {
            line.clear();
            for (size_t c = 0; c < row.size(); ++c) cell(row[c], c, m_numeric[c]);
            line += '\n';
            std::fwrite(line.data(), 1, line.size(), m_out);
        }
        std::fprintf(m_out, "(%zu row%s)\n\n", m_rows.size(), m_rows.size() == 1 ? "" : "s");
    }

private:
    std::FILE* m_out;
    std::vector<std::string> m_columns;
    std::vector<bool> m_numeric;  // right-aligned: no text in it
    std::vector<std::vector<std::string>> m_rows;
};

class CsvOutput final : public SqlResultSink {
public:
    explicit CsvOutput(std::FILE* out) : m_out(out) {}
    void Begin(const std::vector<std::string>& columns) override {
        m_columnCount = columns.size();
        std::string line;
        for (size_t c = 0; c < columns.size(); ++c) Field(line, columns[c], c);
        Write(line);
    }
    void Row(sqlite3_stmt* statement) override {
        std::string line;
        for (size_t c = 0; c < m_columnCount; ++c) {
            const int column = static_cast<int>(c);
            Field(line,
                  sqlite3_column_type(statement, column) == SQLITE_NULL
                      ? ""
                      : CellText(statement, column),
                  c);
        }
        Write(line);
    }
    void End() override { std::fputc('\n', m_out); }

private:
    static void Field(std::string& line, const std::string& text, size_t c) {
        if (c > 0) line += ',';
        if (text.find_first_of(",\"\r\n") == std::string::npos) {
            line += text;
            return;
        }
        line += '"';
        for (char ch : text) line += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        line += '"';
    }
    void Write(std::string& line) {
        line += "\r\n";
        std::fwrite(line.data(), 1, line.size(), m_out);
    }
    std::FILE* m_out;
    size_t m_columnCount = 0;
};

class JsonOutput final : public SqlResultSink {
public:
    explicit JsonOutput(std::FILE* out) : m_out(out) {}
    void Begin(const std::vector<std::string>& columns) override {
        m_columns = columns;
        m_rowCount = 0;
        std::fputc('[', m_out);
    }
    void Row(sqlite3_stmt* statement) override {
        std::string text = m_rowCount++ ? ",\n {" : "{";
        for (size_t c = 0; c < m_columns.size(); ++c) {
            const int column = static_cast<int>(c);
            if (c > 0) text += ", ";
            AppendJsonString(text, m_columns[c]);
            text += ": ";
            AppendSqlCellJson(text, statement, column);
        }
        text += '}';
        std::fwrite(text.data(), 1, text.size(), m_out);
    }
    void End() override { std::fputs("]\n", m_out); }

private:
    std::FILE* m_out;
    std::vector<std::string> m_columns;
    size_t m_rowCount = 0;
};

}  // namespace

void AppendSqlCellJson(std::string& out, sqlite3_stmt* statement, int column) {
    switch (sqlite3_column_type(statement, column)) {
        case SQLITE_NULL:
            out += "null";
            return;
        case SQLITE_INTEGER:
            out += std::to_string(sqlite3_column_int64(statement, column));
            return;
        case SQLITE_FLOAT: {
            const double value = sqlite3_column_double(statement, column);
            out += std::isfinite(value) ? RealText(value) : "null";
            return;
        }
        default:
            AppendJsonString(out, CellText(statement, column));
    }
}

std::unique_ptr<SqlResultSink> MakeSqlOutput(SqlOutputFormat format, std::FILE* out) {
    switch (format) {
        case SqlOutputFormat::kCsv:
            return std::make_unique<CsvOutput>(out);
        case SqlOutputFormat::kJson:
            return std::make_unique<JsonOutput>(out);
        default:
            return std::make_unique<TableOutput>(out);
    }
}

}  // namespace marey
