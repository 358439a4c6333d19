#include "load/CsvReader.hpp"

namespace marey {

std::string_view TrimField(std::string_view text) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    return text;
}

int FindColumn(const std::vector<std::string_view>& header, std::string_view name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (TrimField(header[i]) == name) return static_cast<int>(i);
    return -1;
}

int FindColumn(const std::vector<std::string>& header, std::string_view name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

std::vector<std::string> ReadCsvHeader(CsvReader& reader) {
    std::vector<std::string_view> fields;
    std::vector<std::string> header;
    if (reader.Next(fields))
        for (std::string_view field : fields) header.emplace_back(TrimField(field));
    return header;
}

std::string CsvCellProblem(std::string_view column, std::string_view what, std::string_view cell,
                           std::string_view consequence) {
    return "column \"" + std::string(column) + "\": " + std::string(what) + ": \"" +
           std::string(cell.substr(0, 40)) + "\"; " + std::string(consequence);
}

CsvReader::CsvReader(std::string_view text) : m_text(text) {
    if (m_text.size() >= 3 && static_cast<unsigned char>(m_text[0]) == 0xEF &&
        static_cast<unsigned char>(m_text[1]) == 0xBB &&
        static_cast<unsigned char>(m_text[2]) == 0xBF)
        m_position = 3;
}

bool CsvReader::Next(std::vector<std::string_view>& fields, uint64_t* recordOffset) {
    fields.clear();
    m_storage.clear();
    m_unterminated = false;
    const uint64_t size = m_text.size();
    // Skip blank lines.
    while (m_position < size && (m_text[m_position] == '\n' || m_text[m_position] == '\r'))
        ++m_position;
    if (m_position >= size) return false;
    if (recordOffset) *recordOffset = m_position;
    for (;;) {
        uint64_t p = m_position;
        if (p < size && m_text[p] == '"') {
            // Quoted field: up to the closing quote; "" is one quote.
            ++p;
            std::string value;
            bool doubled = false;
            uint64_t start = p;
            for (;;) {
                const size_t quote = m_text.find('"', p);
                if (quote == std::string_view::npos) {
                    m_unterminated = true;
                    value.append(m_text.substr(start));
                    p = size;
                    break;
                }
                if (quote + 1 < size && m_text[quote + 1] == '"') {
                    value.append(m_text.substr(start, quote + 1 - start));
                    doubled = true;
                    p = start = quote + 2;
                    continue;
                }
                value.append(m_text.substr(start, quote - start));
                p = quote + 1;
                break;
            }
            if (doubled || m_unterminated) {
                m_storage.push_back(std::move(value));
                fields.push_back(m_storage.back());
            } else {
                fields.push_back(m_text.substr(m_position + 1, p - m_position - 2));
            }
            // Anything between the closing quote and the delimiter is kept with the field's text.
            const uint64_t after = p;
            while (p < size && m_text[p] != ',' && m_text[p] != '\n') ++p;
            if (p > after && TrimField(m_text.substr(after, p - after)).size() > 0) {
                std::string joined(fields.back());
                joined.append(m_text.substr(after, p - after));
                m_storage.push_back(std::move(joined));
                fields.back() = m_storage.back();
            }
        } else {
            while (p < size && m_text[p] != ',' && m_text[p] != '\n') ++p;
            std::string_view field = m_text.substr(m_position, p - m_position);
            if (!field.empty() && field.back() == '\r') field.remove_suffix(1);
            fields.push_back(field);
        }
        if (p >= size) {
            m_position = size;
            return true;
        }
        if (m_text[p] == '\n') {
            m_position = p + 1;
            return true;
        }
        m_position = p + 1;  // past the comma
        if (m_position >= size) {
            fields.emplace_back();
            return true;
        }
    }
}

std::string_view FieldAt(const std::vector<std::string_view>& fields, int column) {
    return column >= 0 && static_cast<size_t>(column) < fields.size()
               ? TrimField(fields[static_cast<size_t>(column)])
               : std::string_view();
}

}  // namespace marey
