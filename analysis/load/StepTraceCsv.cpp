#include "load/StepTraceCsv.hpp"

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {

const std::array<const char*, kStepPhaseCount> kStepPhaseColumns = {
    "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage", "Bubble",
    "Communication(Not Overlapped and Exclude Receive)", "Preparing"};

const std::array<const char*, kStepPhaseCount> kStepPhaseJsonKeys = {
    "computing_ns", "communication_not_overlapped_ns", "overlapped_ns", "communication_ns", "free_ns", "stage_ns",
    "bubble_ns", "communication_not_overlapped_exclude_receive_ns", "preparing_ns"};

TimeNs StepWallNs(const StepRow& row) {
    return SaturatingAdd(SaturatingAdd(row.ns[kStepComputing], row.ns[kStepCommNotOverlapped]), row.ns[kStepFree]);
}

TimeNs StepTrace::Total(StepPhase phase) const {
    TimeNs total = 0;
    for (const StepRow& row : rows) total = SaturatingAdd(total, row.ns[phase]);
    return total;
}

Result<StepTrace> ParseStepTraceCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    std::vector<std::string_view> fields;
    const int stepColumn = FindColumn(header, "Step");
    const int typeColumn = FindColumn(header, "Type"), indexColumn = FindColumn(header, "Index");
    std::array<int, kStepPhaseCount> columns{};
    StepTrace trace;
    for (int phase = 0; phase < kStepPhaseCount; ++phase) {
        columns[phase] = FindColumn(header, kStepPhaseColumns[phase]);
        trace.hasColumn[phase] = columns[phase] >= 0;
    }
    if (stepColumn < 0 && columns[kStepComputing] < 0)
        return Status::Error(name + ":1:1: error: not a step_trace_time.csv: no \"Step\" or \"Computing\" column");
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        StepRow row;
        row.step = std::string(FieldAt(fields, stepColumn));
        if (typeColumn >= 0) row.type = std::string(FieldAt(fields, typeColumn));
        if (indexColumn >= 0) row.index = std::string(FieldAt(fields, indexColumn));
        for (int phase = 0; phase < kStepPhaseCount; ++phase) {
            const std::string_view cell = FieldAt(fields, columns[phase]);
            if (columns[phase] < 0 || cell.empty()) continue;
            if (const DecimalError error = ParseMicrosToNs(cell, &row.ns[phase]); error != DecimalError::kNone) {
                row.ns[phase] = 0;
                trace.problems.push_back(
                    {offset, 0, 0, CsvCellProblem(kStepPhaseColumns[phase], DescribeDecimalError(error), cell, "read as 0")});
            }
        }
        trace.rows.push_back(std::move(row));
    }
    if (reader.LastRecordUnterminated())
        trace.problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
    FillLineColumns(text, trace.problems);
    return trace;
}

}  // namespace marey
