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

namespace {

// The offset of the first ',' or '\n' at or after 'p', or 'size'. A byte at a time: cells are
// short (eight bytes on average in a kernel_details.csv), and on them this measured faster than
// eight bytes at a time or 32-byte vector compares.
uint64_t FindFieldEnd(const char* data, uint64_t size, uint64_t p) {
    while (p < size && data[p] != ',' && data[p] != '\n') ++p;
    return p;
}

}  // namespace

uint64_t CsvReader::ReadQuoted(std::vector<std::string_view>& fields) {
    const uint64_t size = m_text.size();
    uint64_t start = m_position + 1;  // past the opening quote
    // Up to the closing quote; "" is one quote. Without doubled quotes the field is a view of
    // the text, else it is built in the scratch storage.
    const size_t scratchAt = m_scratch.size();
    bool inScratch = false;
    for (uint64_t p = start;;) {
        const size_t quote = m_text.find('"', p);
        if (quote == std::string_view::npos) {
            m_unterminated = true;
            m_scratch.append(m_text.substr(start));
            m_scratchFields.push_back({fields.size(), scratchAt, m_scratch.size() - scratchAt});
            fields.emplace_back();
            return size;
        }
        if (quote + 1 < size && m_text[quote + 1] == '"') {
            m_scratch.append(m_text.substr(start, quote + 1 - start));
            inScratch = true;
            p = start = quote + 2;
            continue;
        }
        if (inScratch) {
            m_scratch.append(m_text.substr(start, quote - start));
            m_scratchFields.push_back({fields.size(), scratchAt, m_scratch.size() - scratchAt});
            fields.emplace_back();
        } else {
            fields.push_back(m_text.substr(m_position + 1, quote - m_position - 1));
        }
        return quote + 1;
    }
}

bool CsvReader::Next(std::vector<std::string_view>& fields, uint64_t* recordOffset) {
    fields.clear();
    m_scratch.clear();
    m_scratchFields.clear();
    const uint64_t size = m_text.size();
    // Skip blank lines.
    while (m_position < size && (m_text[m_position] == '\n' || m_text[m_position] == '\r'))
        ++m_position;
    // At the end the flag stays as the last record left it: readers ask once their loop is done.
    if (m_position >= size) return false;
    m_unterminated = false;
    m_cutAtEnd = false;
    if (recordOffset) *recordOffset = m_position;
    bool ended = false;
    while (!ended) {
        uint64_t p = m_position;
        if (p < size && m_text[p] == '"') {
            p = ReadQuoted(fields);
            // Anything between the closing quote and the delimiter is kept with the field's text.
            const uint64_t after = p;
            p = FindFieldEnd(m_text.data(), size, p);
            if (p > after && TrimField(m_text.substr(after, p - after)).size() > 0) {
                if (m_scratchFields.empty() || m_scratchFields.back().field != fields.size() - 1) {
                    m_scratchFields.push_back({fields.size() - 1, m_scratch.size(), 0});
                    m_scratch.append(fields.back());
                }
                m_scratch.append(m_text.substr(after, p - after));
                m_scratchFields.back().length = m_scratch.size() - m_scratchFields.back().offset;
            }
        } else {
            p = FindFieldEnd(m_text.data(), size, p);
            const uint64_t end = p > m_position && m_text[p - 1] == '\r' ? p - 1 : p;
            fields.emplace_back(m_text.data() + m_position, end - m_position);
        }
        if (p >= size) {
            m_position = size;
            ended = true;
            m_cutAtEnd = m_text.back() != '\r';
        } else if (m_text[p] == '\n') {
            m_position = p + 1;
            ended = true;
        } else {
            m_position = p + 1;  // past the comma
            if (m_position >= size) {
                fields.emplace_back();
                ended = true;
                m_cutAtEnd = true;
            }
        }
    }
    for (const ScratchField& built : m_scratchFields)
        fields[built.field] = std::string_view(m_scratch.data() + built.offset, built.length);
    return true;
}

std::string_view FieldAt(const std::vector<std::string_view>& fields, int column) {
    return column >= 0 && static_cast<size_t>(column) < fields.size()
               ? TrimField(fields[static_cast<size_t>(column)])
               : std::string_view();
}

CsvRecordCheck CheckTableRecord(const CsvReader& reader,
                                const std::vector<std::string_view>& fields, size_t headerWidth,
                                uint64_t offset, std::vector<ImportProblem>& problems) {
    if (reader.LastRecordUnterminated() || reader.LastRecordCut()) {
        problems.push_back(
            {offset, 0, 0,
             reader.LastRecordUnterminated() ? kCsvUnterminatedRecord : kCsvCutRecord});
        return CsvRecordCheck::kStop;
    }
    if (fields.size() == headerWidth) return CsvRecordCheck::kRead;
    problems.push_back({offset, 0, 0,
                        "a row of " + std::to_string(fields.size()) +
                            " cells against the header's " + std::to_string(headerWidth) +
                            " columns; row left out"});
    return CsvRecordCheck::kSkip;
}

}  // namespace marey
