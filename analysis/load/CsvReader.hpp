#pragma once
// RFC 4180 CSV as profilers write it: quoted fields with doubled quotes, commas and newlines
// inside quotes, CRLF or LF, an optional byte-order mark, a missing final newline.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"

namespace marey {

class CsvReader {
public:
    // 'text' must outlive the reader; a UTF-8 byte-order mark at its start is skipped.
    explicit CsvReader(std::string_view text);

    // Reads the next record. Fields are unquoted; views point into the text, or into the
    // reader's own storage for quoted fields with doubled quotes (valid until the next call).
    // 'recordOffset' gets the byte offset of the record. Returns false at the end of the text.
    // Blank lines are skipped. O(record length); allocates nothing once 'fields' and the
    // reader's storage have grown to the widest record.
    bool Next(std::vector<std::string_view>& fields, uint64_t* recordOffset = nullptr);

    // True when the last record ended inside a quoted field that never closed.
    bool LastRecordUnterminated() const { return m_unterminated; }
    // True when the record just read ends the text without a line end. Profilers end every row
    // with one, so such a record is where a cut file stops: its last cell may be cut short.
    bool LastRecordCut() const { return m_cutAtEnd; }

private:
    // A field whose text is not one run of the file (doubled quotes, text after the closing
    // quote, a field never closed) is built in m_scratch; its view is set once the record ends.
    struct ScratchField {
        size_t field, offset, length;
    };
    // Reads the quoted field at m_position into 'fields'; returns where its text ends (at the
    // closing quote's next byte, or the end of the text).
    uint64_t ReadQuoted(std::vector<std::string_view>& fields);

    std::string_view m_text;
    uint64_t m_position = 0;
    std::string m_scratch;  // reused from record to record: no allocation per field
    std::vector<ScratchField> m_scratchFields;
    bool m_unterminated = false;
    bool m_cutAtEnd = false;
};

// Index of the column whose header is 'name' (compared after trimming white space), or -1.
int FindColumn(const std::vector<std::string_view>& header, std::string_view name);
int FindColumn(const std::vector<std::string>& header, std::string_view name);

// The first record of 'reader' as trimmed strings (the reader's own fields only live until its
// next record); empty when the text holds no record.
std::vector<std::string> ReadCsvHeader(CsvReader& reader);

// The problem text for a cell that could not be read: `column "Start Time(us)": not a decimal
// number: "abc"; row skipped`. The cell is cut to 40 bytes.
std::string CsvCellProblem(std::string_view column, std::string_view what, std::string_view cell,
                           std::string_view consequence);

// What a table reader says when the last record ends inside a quoted field: it reads none of
// that record, whose last cell is cut and whose next cells are lost.
inline constexpr const char* kCsvUnterminatedRecord =
    "a quoted field never closes: the file is truncated inside this row; row left out";
// What it says of a last row without a line end (CsvReader::LastRecordCut).
inline constexpr const char* kCsvCutRecord =
    "the last row has no line end: the file is cut inside it; row left out";

// What a table reader does with the record just read: read it, skip it (another width than the
// header's: a short row would read its missing cells as unrecorded, a long one its cells in their
// neighbours' columns), or stop (the file is cut inside it). A record skipped or stopped at is
// named in 'problems' at 'offset'. The one rule of every table reader.
enum class CsvRecordCheck { kRead, kSkip, kStop };
CsvRecordCheck CheckTableRecord(const CsvReader& reader,
                                const std::vector<std::string_view>& fields, size_t headerWidth,
                                uint64_t offset, std::vector<ImportProblem>& problems);

// Field 'column' of a record, trimmed; empty when the column is absent (-1) or the row is short.
std::string_view FieldAt(const std::vector<std::string_view>& fields, int column);

// 'text' without surrounding white space (spaces, tabs, CR, LF): profilers end time values with a
// tab so that spreadsheets keep their digits.
std::string_view TrimField(std::string_view text);

}  // namespace marey
