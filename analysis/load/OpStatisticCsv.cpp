#include "load/OpStatisticCsv.hpp"

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {

Result<OpStatistic> ParseOpStatisticCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int typeColumn = FindColumn(header, "OP Type");
    if (typeColumn < 0)
        return Status::Error(name + ":1:1: error: not an op_statistic.csv: no \"OP Type\" column");
    const int coreColumn = FindColumn(header, "Core Type");
    const int countColumn = FindColumn(header, "Count");
    const int ratioColumn = FindColumn(header, "Ratio(%)");
    struct TimeColumn {
        const char* label;
        TimeNs OpStatisticRow::*field;
    };
    const TimeColumn timeColumns[] = {{"Total Time(us)", &OpStatisticRow::totalNs},
                                      {"Min Time(us)", &OpStatisticRow::minNs},
                                      {"Avg Time(us)", &OpStatisticRow::avgNs},
                                      {"Max Time(us)", &OpStatisticRow::maxNs}};
    int timeIndex[4];
    for (int i = 0; i < 4; ++i) timeIndex[i] = FindColumn(header, timeColumns[i].label);

    OpStatistic table;
    uint64_t offset = 0;
    auto report = [&](const char* column, DecimalError error, std::string_view cell) {
        table.problems.push_back(
            {offset, 0, 0, CsvCellProblem(column, DescribeDecimalError(error), cell, "read as 0")});
    };
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) break;  // a row cut inside a quote: named below
        OpStatisticRow row;
        row.type = std::string(FieldAt(fields, typeColumn));
        row.coreType = std::string(FieldAt(fields, coreColumn));
        int64_t count = 0;
        if (const std::string_view cell = FieldAt(fields, countColumn); !cell.empty()) {
            if (const DecimalError error = ParseScaledDecimal(cell, 0, &count);
                error != DecimalError::kNone || count < 0)
                report("Count", error == DecimalError::kNone ? DecimalError::kOutOfRange : error,
                       cell),
                    count = 0;
        }
        row.count = static_cast<uint64_t>(count);
        for (int i = 0; i < 4; ++i) {
            const std::string_view cell = FieldAt(fields, timeIndex[i]);
            if (cell.empty()) continue;
            if (const DecimalError error = ParseMicrosToNs(cell, &(row.*timeColumns[i].field));
                error != DecimalError::kNone) {
                row.*timeColumns[i].field = 0;
                report(timeColumns[i].label, error, cell);
            }
        }
        int64_t ratioMillionths = 0;
        if (const std::string_view cell = FieldAt(fields, ratioColumn); !cell.empty()) {
            if (const DecimalError error = ParseScaledDecimal(cell, 6, &ratioMillionths);
                error != DecimalError::kNone)
                report("Ratio(%)", error, cell), ratioMillionths = 0;
        }
        row.ratioPercent = static_cast<double>(ratioMillionths) / 1e6;
        table.rows.push_back(std::move(row));
    }
    if (reader.LastRecordUnterminated())
        table.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    FillLineColumns(text, table.problems);
    return table;
}

}  // namespace marey
